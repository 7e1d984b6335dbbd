// What a request carries through the pipeline, and the per-server state the stages read.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { UserInfo } from "../access/user-info.js";
import type { AdmissionMetrics } from "../admission/admission-metrics.js";
import type { RequestAudit } from "../audit/audit-event.js";
import type { ServerAudit } from "../audit/server-audit.js";
import type { AccessControl } from "../authn/access-control.js";
import type { OpenIDMetadata } from "../authn/service-account/openid-metadata.js";
import type { FeatureGates } from "../features/feature-gates.js";
import type { FlowControl } from "../flowcontrol/flow-control.js";
import type { ErrorLog } from "../http/write-error.js";
import type { MetricRegistry } from "../metrics/metric-registry.js";
import type { OpenApiDocuments } from "../openapi/openapi-documents.js";
import type { ResourceApi } from "../resources/resource-api.js";
import type { RouteMatch } from "../routing/match-route.js";
import type { RequestInfo } from "../routing/request-info.js";
import type { HealthChecks } from "./endpoints/health.js";
import type { InFlightLimit } from "./in-flight-limit.js";
import type { RequestWaitGroup } from "./request-wait-group.js";

export interface ServerState {
  /** The audit policy and backend; nothing is audited without them. */
  audit?: ServerAudit;
  /** Authenticators and authorizers. */
  access: AccessControl;
  /** API Priority and Fairness; without it (`--enable-priority-and-fairness=false`) the max-in-flight limits apply. */
  flowControl?: FlowControl;
  /** `host:port` the server listens on, as /api reports it in serverAddressByClientCIDRs. */
  address: string;
  health: HealthChecks;
  /** `--feature-gates` over kube-apiserver v1.36's defaults. */
  featureGates: FeatureGates;
  /** kube-apiserver's request bounds (--min-request-timeout, --request-timeout, in-flight limits). */
  limits: RequestLimits;
  log: ErrorLog;
  /** What admission measured, for /metrics. */
  admissionMetrics: AdmissionMetrics;
  /** The server's metric families, exported at /metrics. */
  metrics: MetricRegistry;
  /** Lines worth keeping only when debugging (kube's `--v=4`): a client that went away, a write after a timeout. */
  debug: (line: string) => void;
  /** The service account issuer's discovery documents (`/.well-known/openid-configuration`, `/openid/v1/jwks`). */
  openIdMetadata?: OpenIDMetadata;
  /** The OpenAPI documents this server serves; group/versions registered at run time change them. */
  openapi: OpenApiDocuments;
  /** Every resource verb, shared by the handlers and the in-server controllers. */
  resources: ResourceApi;
}

export interface RequestLimits {
  /** `--min-request-timeout`: a watch without `timeoutSeconds` lasts a random time between this and twice this. */
  minRequestTimeoutSeconds: number;
  /** `--request-timeout`: a request that is not long-running answers 504 after this. */
  requestTimeoutMs: number;
  /** Aborted when the server begins to shut down: long-running requests (watches) end cleanly then. */
  stopping: AbortSignal;
  /** `--max-requests-inflight` and `--max-mutating-requests-inflight`. */
  inFlight: InFlightLimit;
  /** The requests a graceful shutdown waits for. */
  requests: RequestWaitGroup;
  /** `--shutdown-send-retry-after`: true once shutdown answers new requests 429 while the ones in flight finish. */
  notAcceptingNewRequests: () => boolean;
}

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** The query as kube reads it (request-target.ts); use `path` for the path. */
  url: URL;
  /** The percent-decoded path, Go's URL.Path. */
  path: string;
  server: ServerState;
  /** Set by the requestInfo stage. */
  info?: RequestInfo;
  /** The generated route a resource request matched, set by the requestInfo stage. */
  route?: RouteMatch;
  /** Set by the authentication stage; the impersonation stage replaces it with the impersonated user. */
  user?: UserInfo;
  /** The user authentication found, kept when impersonation replaced `user` (audit records both). */
  authenticatedUser?: UserInfo;
  /** The request body, read (and bounded) by the requestBody stage, after authorization. */
  body?: Buffer;
  /** Warnings for the response's Warning headers (admission policies add them), sent with success or error. */
  warnings?: string[];
  /** The name of the object a create carries, which its path does not (for the audit event's objectRef). */
  objectName?: string;
  /** Set for a watch by API Priority and Fairness: the watch calls it once its initial events are sent. */
  watchInitialized?: () => void;
  /** The request's audit event, when the policy audits it (set by the audit stage). */
  audit?: RequestAudit;
  /** Annotations for the request's audit event (admission policies add them). */
  auditAnnotations?: Record<string, string>;
}

/** One named step of the pipeline; it calls `next` to hand the request inward, or answers (or throws) itself. */
export interface Stage {
  name: string;
  run(ctx: RequestContext, next: () => Promise<void>): Promise<void>;
}
