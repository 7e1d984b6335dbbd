// A RequestContext over an in-memory request, for testing stages without a socket.

import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { adminUser } from "../../../runtime/access/user-info.js";
import { AdmissionMetrics } from "../../../runtime/admission/admission-metrics.js";
import { BearerTokenAuthenticator } from "../../../runtime/authn/bearer-token.js";
import { StaticTokenAuthenticator } from "../../../runtime/authn/static-tokens.js";
import { PrivilegedGroupAuthorizer } from "../../../runtime/authz/privileged-groups.js";
import { UnionAuthorizer } from "../../../runtime/authz/union-authorizer.js";
import { FeatureGates } from "../../../runtime/features/feature-gates.js";
import { MetricRegistry } from "../../../runtime/metrics/metric-registry.js";
import { OpenApiDocuments } from "../../../runtime/openapi/openapi-documents.js";
import { ResourceApi } from "../../../runtime/resources/resource-api.js";
import type { RequestContext } from "../../../runtime/server/context.js";
import { ping } from "../../../runtime/server/endpoints/health.js";
import { InFlightLimit } from "../../../runtime/server/in-flight-limit.js";
import { RequestWaitGroup } from "../../../runtime/server/request-wait-group.js";
import { MemoryStore } from "../../../runtime/storage/memory-store.js";
import { builtinKinds } from "../builtin-kinds.js";

export interface FakeRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: Buffer | Buffer[];
}

export const testToken = "test-token";
const tokens = new StaticTokenAuthenticator([[testToken, adminUser]]);

export function fakeContext(request: FakeRequest = {}): RequestContext {
  const chunks = request.body === undefined ? [] : Array.isArray(request.body) ? request.body : [request.body];
  const req = Object.assign(Readable.from(chunks), {
    method: request.method ?? "GET",
    url: request.path ?? "/",
    headers: request.headers ?? {},
  }) as unknown as IncomingMessage;
  return {
    req,
    res: {} as ServerResponse,
    url: new URL(request.path ?? "/", "http://kapi"),
    path: new URL(request.path ?? "/", "http://kapi").pathname,
    server: {
      access: {
        authenticator: new BearerTokenAuthenticator(tokens),
        tokenAuthenticator: tokens,
        authorizer: new UnionAuthorizer([new PrivilegedGroupAuthorizer()]),
      },
      address: "127.0.0.1:6443",
      admissionMetrics: new AdmissionMetrics(),
      metrics: new MetricRegistry(),
      health: { livez: [ping], readyz: [ping] },
      limits: {
        minRequestTimeoutSeconds: 1800,
        requestTimeoutMs: 60_000,
        stopping: new AbortController().signal,
        inFlight: new InFlightLimit(),
        requests: new RequestWaitGroup(),
        notAcceptingNewRequests: () => false,
      },
      featureGates: new FeatureGates(),
      log: () => {},
      debug: () => {},
      openapi: new OpenApiDocuments(),
      resources: new ResourceApi({ kinds: builtinKinds(), store: new MemoryStore() }),
    },
  };
}

export const passOn = async () => {};
