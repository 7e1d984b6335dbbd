// The endpoints outside the resource API: version, discovery, OpenAPI, health and the service account
// issuer's OIDC discovery. Each is read-only (GET or
// HEAD); another method on a known path is 405, an unknown path 404.

import {
  jwksContentType,
  jwksPath,
  openIDCacheControl,
  openIDConfigurationContentType,
  openIDConfigurationPath,
} from "../../authn/service-account/openid-metadata.js";
import { pathNotFound } from "../../errors/generic-errors.js";
import { notAcceptable } from "../../errors/status-error.js";
import { formatMediaType, type MediaType, negotiate } from "../../http/accept.js";
import { writeJson, writeText } from "../../http/write-body.js";
import { healthMetrics } from "../../metrics/health-metrics.js";
import { isOpenApiPath, serveOpenApi } from "../../openapi/serve-openapi.js";
import type { KindRegistry } from "../../registry/kind-registry.js";
import type { RequestContext } from "../context.js";
import { aggregatedDiscoveryType, apiVersionsBody, discoveryDocuments } from "./discovery-endpoint.js";
import { checksOf, type HealthEndpoint, runHealthChecks, runOneCheck } from "./health.js";
import { serveMetrics } from "./metrics.js";
import { versionBody } from "./version.js";

export type Endpoint = (ctx: RequestContext) => Promise<void>;

interface Offer extends MediaType {
  aggregated: boolean;
}

const plainJson: Offer = { type: "application", subtype: "json", params: {}, aggregated: false };
const aggregatedJson: Offer = {
  type: "application",
  subtype: "json",
  params: { g: "apidiscovery.k8s.io", v: "v2", as: "APIGroupDiscoveryList" },
  aggregated: true,
};

function choose(ctx: RequestContext, offers: Offer[]): Offer {
  const chosen = negotiate(ctx.req.headers.accept, offers);
  if (!chosen) throw notAcceptable(offers.map(formatMediaType));
  return chosen;
}

/** Plain JSON documents: the only encoding offered is application/json. */
function jsonEndpoint(body: (ctx: RequestContext) => string | Promise<string>): Endpoint {
  return async (ctx) => {
    choose(ctx, [plainJson]);
    writeJson(ctx.res, 200, await body(ctx));
  };
}

const storageVersionHash = (ctx: RequestContext) => ctx.server.featureGates.enabled("StorageVersionHash");

/** `/api` and `/apis`: the legacy document, or aggregated discovery when Accept asks for it. */
function discoveryRoot(path: "/api" | "/apis", legacy: (ctx: RequestContext) => string): Endpoint {
  return async (ctx) => {
    ctx.res.setHeader("Vary", "Accept");
    if (choose(ctx, [plainJson, aggregatedJson]).aggregated) {
      writeJson(
        ctx.res,
        200,
        discoveryDocuments(ctx.server.resources.kinds, storageVersionHash(ctx)).aggregated.get(path) ?? "",
        aggregatedDiscoveryType,
      );
    } else {
      writeJson(ctx.res, 200, legacy(ctx));
    }
  };
}

function healthEndpoint(endpoint: HealthEndpoint, checkName?: string): Endpoint {
  return async (ctx) => {
    const checks = checksOf(ctx.server.health, endpoint);
    const answer =
      checkName === undefined
        ? await runHealthChecks(endpoint, checks, ctx.url.searchParams, ctx.server.log, (name, ok) =>
            healthMetrics(ctx.server.metrics).observe(endpoint, name, ok),
          )
        : await runOneCheck(checks.find((c) => c.name === checkName));
    if (!answer) throw pathNotFound();
    writeText(ctx.res, answer.code, answer.body);
  };
}

/** The service account issuer's discovery documents, when the server publishes them. */
function openIdEndpoint(document: "configuration" | "jwks", contentType: string): Endpoint {
  return async (ctx) => {
    const metadata = ctx.server.openIdMetadata;
    if (metadata === undefined) throw pathNotFound();
    ctx.res.setHeader("Cache-Control", openIDCacheControl);
    writeJson(ctx.res, 200, metadata[document], contentType);
  };
}

const fixed = new Map<string, Endpoint>([
  ["/version", jsonEndpoint(() => versionBody)],
  ["/api", discoveryRoot("/api", (ctx) => apiVersionsBody(ctx.server.resources.kinds, ctx.server.address))],
  [
    "/apis",
    discoveryRoot(
      "/apis",
      (ctx) => discoveryDocuments(ctx.server.resources.kinds, storageVersionHash(ctx)).byPath.get("/apis") ?? "",
    ),
  ],
  ["/livez", healthEndpoint("livez")],
  ["/readyz", healthEndpoint("readyz")],
  ["/healthz", healthEndpoint("healthz")],
  ["/metrics", serveMetrics((ctx) => ctx.server.metrics)],
  ["/metrics/slis", serveMetrics((ctx) => healthMetrics(ctx.server.metrics).registry)],
  [openIDConfigurationPath, openIdEndpoint("configuration", openIDConfigurationContentType)],
  [jwksPath, openIdEndpoint("jwks", jwksContentType)],
]);

/** The endpoint serving `path`, or undefined when nothing outside the resource API does. */
/** Paths kube-apiserver's mux also serves with one trailing slash: /version and the discovery documents. */
const slashTolerant = new Set(["/version", "/api", "/apis"]);

/** `storageVersionHash`: the StorageVersionHash feature gate (discovery-endpoint.ts). */
export function nonResourceEndpoint(
  path: string,
  kinds: KindRegistry,
  storageVersionHash: boolean,
): Endpoint | undefined {
  const exact = fixed.get(path);
  if (exact) return exact;
  const documents = discoveryDocuments(kinds, storageVersionHash).byPath;
  const document = documents.get(path);
  if (document !== undefined) return jsonEndpoint(() => document);
  if (path.length > 1 && path.endsWith("/")) {
    const trimmed = path.slice(0, -1);
    if (slashTolerant.has(trimmed)) return fixed.get(trimmed);
    const trimmedDocument = documents.get(trimmed);
    if (trimmedDocument !== undefined) return jsonEndpoint(() => trimmedDocument);
  }
  if (isOpenApiPath(path)) return (ctx) => serveOpenApi(ctx, ctx.server.openapi);
  // Check names may hold slashes: /livez/poststarthook/rbac/bootstrap-roles.
  const health = /^\/(livez|readyz|healthz)\/(.+)$/.exec(path);
  if (health) return healthEndpoint(health[1] as HealthEndpoint, health[2]);
  return undefined;
}
