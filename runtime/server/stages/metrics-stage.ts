// Records apiserver_request_* for a request once it is answered, as kube's instrumented route handlers do:
// resource requests that matched a route, and the root health paths and /openapi/v3. Requests refused by
// authentication or authorization never reach a route, so, as in kube, they are not counted.
import { StatusError } from "../../errors/status-error.js";
import {
  dryRunLabel,
  metricsScope,
  type RequestLabels,
  reportedVerb,
  requestMetrics,
} from "../../metrics/request-metrics.js";
import type { RequestContext, Stage } from "../context.js";
import { isMutatingVerb } from "../in-flight-limit.js";
import { isLongRunning } from "../long-running.js";

const instrumentedPaths = new Set(["/healthz", "/livez", "/readyz"]);

/** The non-resource path label kube's instrumented handlers give, or undefined for a path it does not count. */
function nonResourceLabel(path: string): string | undefined {
  if (instrumentedPaths.has(path)) return path;
  if (path === "/openapi/v3" || path.startsWith("/openapi/v3/")) return "openapi/v3";
  return undefined;
}

/** The request's metric labels, or undefined when kube does not count it. */
export function requestLabels(ctx: RequestContext): RequestLabels | undefined {
  const info = ctx.info;
  if (info === undefined) return undefined;
  // The route's scope: a name a field selector narrowed the list to is not in the path.
  const scope = metricsScope(info, info.isResourceRequest ? (info.parts[1] ?? "") : "");
  const contentType = ctx.req.headers["content-type"]?.split(";")[0]?.trim();
  const verb = reportedVerb(ctx.req.method ?? "GET", info, scope, ctx.url.searchParams, contentType);
  if (info.isResourceRequest) {
    if (ctx.route === undefined) return undefined;
    return {
      verb,
      dry_run: dryRunLabel(ctx.url.searchParams),
      group: info.group,
      version: info.version,
      resource: info.resource,
      subresource: info.subresource,
      scope,
      component: "apiserver",
    };
  }
  const path = nonResourceLabel(ctx.path);
  if (path === undefined) return undefined;
  return {
    verb,
    dry_run: dryRunLabel(ctx.url.searchParams),
    group: "",
    version: "",
    resource: "",
    subresource: path,
    scope,
    component: "",
  };
}

/** A request refused in self-defense (429, 504): counted as kube's RecordRequestTermination does. */
export function recordTermination(ctx: RequestContext, code: number): void {
  const labels = requestLabels(ctx);
  if (labels === undefined) return;
  const recorder = requestMetrics(ctx.server.metrics);
  recorder.terminated(labels, code);
  // kube's in-flight filter counts the request it drops as answered, too.
  if (code === 429) recorder.requests.inc({ ...labels, code: "429" });
}

function responseBytes(ctx: RequestContext): number | undefined {
  const length = ctx.res.getHeader?.("content-length");
  if (length === undefined) return undefined;
  const bytes = Number(length);
  return Number.isFinite(bytes) ? bytes : undefined;
}

export const metrics: Stage = {
  name: "metrics",
  async run(ctx, next) {
    const labels = requestLabels(ctx);
    if (labels === undefined || ctx.info === undefined) return next();
    const recorder = requestMetrics(ctx.server.metrics);
    const started = performance.now();
    const longRunning = isLongRunning(ctx.info);
    const { dry_run: _, ...gaugeLabels } = labels;
    if (longRunning) recorder.longRunning.inc(gaugeLabels);
    const done = longRunning ? undefined : recorder.executing(isMutatingVerb(ctx.info.verb));
    let code = 200;
    try {
      await next();
      code = ctx.res.statusCode;
    } catch (error) {
      code = error instanceof StatusError ? error.status.code : 500;
      throw error;
    } finally {
      done?.();
      if (longRunning) recorder.longRunning.dec(gaugeLabels);
      recorder.observe(labels, code, (performance.now() - started) / 1000, responseBytes(ctx));
      const annotations = ctx.auditAnnotations;
      if (annotations?.["k8s.io/deprecated"] === "true")
        recorder.deprecated(labels, annotations["k8s.io/removed-release"] ?? "");
    }
  },
};
