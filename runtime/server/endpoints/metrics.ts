// `/metrics` and `/metrics/slis`: the server's metric families (or its health check SLIs) in Prometheus text format 0.0.4, gzip-compressed when the client
// accepts it, as kube-apiserver's handler answers. Like every non-resource path it is authorized as a `get`
// on the path (the system:monitoring ClusterRole grants it).
import { gzipSync } from "node:zlib";
import type { MetricRegistry } from "../../metrics/metric-registry.js";
import type { RequestContext } from "../context.js";

export const metricsContentType = "text/plain; version=0.0.4; charset=utf-8; escaping=underscores";

function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  return header.split(",").some((part) => {
    const [coding, ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    return coding === "gzip" && !params.some((p) => /^q=0(\.0*)?$/.test(p));
  });
}

/** Serves the registry `registryOf` picks: the server's own at /metrics, the health SLIs' at /metrics/slis. */
export function serveMetrics(registryOf: (ctx: RequestContext) => MetricRegistry) {
  return (ctx: RequestContext) => serve(ctx, registryOf(ctx));
}

async function serve(ctx: RequestContext, registry: MetricRegistry): Promise<void> {
  const text = await registry.text();
  const headers: Record<string, string | number> = { "Content-Type": metricsContentType };
  let body: Buffer = Buffer.from(text);
  if (acceptsGzip(ctx.req.headers["accept-encoding"])) {
    body = gzipSync(body);
    headers["Content-Encoding"] = "gzip";
  }
  headers["Content-Length"] = body.length;
  ctx.res.writeHead(200, headers);
  ctx.res.end(ctx.req.method === "HEAD" ? undefined : body);
}
