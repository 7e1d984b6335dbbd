// Starts one isolated kapi server: HTTPS (or plain HTTP) on 127.0.0.1 and a free port unless told otherwise,
// with a fresh admin token and, unless given, a fresh self-signed CA and serving certificate, an admin client
// certificate from that CA, and a fresh service account signing key.

import { type KeyObject, randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  ServerResponse,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { type AddressInfo, Server as NetServer, type Socket } from "node:net";
import { namespaceLifecycle } from "../admission/namespace-lifecycle.js";
import { admissionPolicyEnvironment } from "../admission/policy/policy-environment.js";
import { validatingAdmissionPolicy } from "../admission/policy/validating-admission-policy.js";
import { generateSigningKey } from "../authn/service-account/keys.js";
import { openIDMetadata } from "../authn/service-account/openid-metadata.js";
import { adminUser } from "../authn/user.js";
import type { AuthorizationOptions } from "../authz/authorization-config.js";
import { celAuthorizer } from "../authz/cel-authorizer.js";
import { reconcileBootstrapPolicy } from "../authz/rbac/reconcile-bootstrap-policy.js";
import { parseControllers } from "../controllers/controller-selection.js";
import { type ControllerSwitches, startControllers } from "../controllers/start-controllers.js";
import { CrdController } from "../crd/crd-controller.js";
import { createServingCertificates, issueClientCertificate, type ServingCertificates } from "../http/certificates.js";
import { renderKubeconfig } from "../http/kubeconfig.js";
import type { ErrorLog } from "../http/write-error.js";
import { OpenApiDocuments } from "../openapi/openapi-documents.js";
import { KindRegistry } from "../registry/kind-registry.js";
import type { RuntimeConfig } from "../registry/runtime-config.js";
import { ResourceApi } from "../resources/resource-api.js";
import { MemoryStore } from "../storage/memory-store.js";
import type { Store } from "../storage/store.js";
import type { AuditSink } from "./audit-event.js";
import { ConnectionTracker } from "./connection-tracker.js";
import type { ServerState } from "./context.js";
import { type HealthCheck, ping, shutdownCheck } from "./endpoints/health.js";
import { defaultInFlightLimits, InFlightLimit } from "./in-flight-limit.js";
import { RequestWaitGroup } from "./request-wait-group.js";
import { serveRequest } from "./serve-request.js";
import { type AuthenticationFlags, startAccessControl } from "./start-access-control.js";

export interface StartServerOptions {
  /** Address to listen on; default 127.0.0.1. */
  host?: string;
  /** Port to listen on; default 0, a free port. */
  port?: number;
  /** Serve plain HTTP instead of HTTPS (no client certificates then: the admin kubeconfig carries the token). */
  insecure?: boolean;
  /** Certificates to serve with; default a new self-signed CA and serving certificate. */
  certificates?: ServingCertificates;
  /** Admin bearer token (a system:masters credential, always accepted); default 32 random bytes. */
  adminToken?: string;
  /** Where unexpected errors and failed health checks are reported; default console.error. */
  log?: ErrorLog;
  /** Where debug lines go (a client that went away mid-request, …); default nowhere. */
  debug?: (line: string) => void;
  /** `--max-requests-inflight`: read-only requests served at once before 429 (default 400, 0 no limit). */
  maxRequestsInflight?: number;
  /** `--max-mutating-requests-inflight`: mutating requests served at once before 429 (default 200, 0 no limit). */
  maxMutatingRequestsInflight?: number;
  /** `--request-timeout` in milliseconds: requests that are not long-running answer 504 after it (default 60 s). */
  requestTimeoutMs?: number;
  /** `--min-request-timeout`: watches without timeoutSeconds last between this and twice this (default 1800 s). */
  minRequestTimeoutSeconds?: number;
  /** `--shutdown-delay-duration` in milliseconds: close() keeps serving this long after /readyz fails (default 0). */
  shutdownDelayMs?: number;
  /**
   * Connection bounds of kube-apiserver's Go HTTP server: idle keep-alive connections close after `idleMs`
   * (90 s), and a request's headers (and the TLS handshake) must arrive within `headersMs` (32 s).
   */
  connectionTimeouts?: { idleMs?: number; headersMs?: number };
  /** The store objects live in; default a new in-memory store. The server closes it on close(). */
  store?: Store;
  /** How long watch history stays servable; default 5 minutes. */
  watchHistoryWindowMs?: number;
  /**
   * The in-server controllers (docs/controllers.md): `true` (default) runs kube-controller-manager's default
   * set, `false` all but the system namespaces kube-apiserver itself creates, an object switches them one by
   * one, and a list selects them as kube-controller-manager's `--controllers` does.
   */
  controllers?: boolean | ControllerSwitches | readonly string[];
  /** Receives one audit.k8s.io/v1 Event per request (Metadata level); no auditing without it. */
  audit?: AuditSink;
  /** kube-apiserver's authentication flags (docs/authentication.md). */
  authentication?: AuthenticationFlags;
  /** kube-apiserver's authorization flags (docs/authorization.md); default `--authorization-mode=Node,RBAC`. */
  authorization?: AuthorizationOptions;
  /** Signs service account tokens unless `--service-account-signing-key-file` is given; default a new key. */
  serviceAccountSigningKey?: KeyObject;
  /** kube-apiserver's `--runtime-config`: group/versions served beyond or instead of the default ones. */
  runtimeConfig?: RuntimeConfig;
}

export interface RunningServer {
  url: string;
  /** An admin kubeconfig for this server (YAML text): a system:masters client certificate, or the token. */
  kubeconfig: string;
  /** The admin bearer token. */
  adminToken: string;
  close(): Promise<void>;
}

const defaultLog: ErrorLog = (message, error) => console.error(`kapi: ${message}:`, error);

/** kube-apiserver's Go HTTP server: IdleTimeout 90 s, ReadHeaderTimeout (and so the TLS handshake) 32 s. */
const idleTimeoutMs = 90_000;
const headersTimeoutMs = 32_000;
/** How long a connection accepted just before shutdown may take to send its request (Go's server gives 5 s). */
const newConnectionGraceMs = 5_000;
const netServerClose = NetServer.prototype.close;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Go's MaxHeaderBytes in kube-apiserver's server: 1 MiB of request line and headers. */
const maxHeaderBytes = 1 << 20;

function servingNames(host: string): { dns: string[]; ips: string[] } {
  const ips = ["127.0.0.1", "::1"];
  if (host !== "0.0.0.0" && host !== "::" && !ips.includes(host)) ips.push(host);
  return { dns: ["localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"], ips };
}

/**
 * Requests Node does not hand to the request handler by default: CONNECT (answered like any other method,
 * 404 or 405 as kube does, then the connection closes) and `Expect: 100-continue` (the client is told to go on
 * only once its request is authorized and the body is wanted).
 */
function serveSpecialRequests(server: Server, state: ServerState): void {
  server.on("connect", (req: IncomingMessage, socket: Socket) => {
    socket.on("error", (error) => state.debug(`CONNECT connection failed: ${error.message}`));
    // A CONNECT pipelined behind a request whose response still holds the connection cannot be answered on it.
    if ((socket as Socket & { _httpMessage?: unknown })._httpMessage) {
      state.debug("CONNECT pipelined behind another request: connection closed");
      socket.destroy();
      return;
    }
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.on("finish", () => {
      res.detachSocket(socket);
      socket.destroySoon();
    });
    serveRequest(state, req, res);
  });
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => serveRequest(state, req, res));
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

function controllerOptions(option: StartServerOptions["controllers"]): {
  enabled: ControllerSwitches;
  selection?: readonly string[];
} {
  if (option === undefined || option === true) return { enabled: {} };
  if (option === false) {
    const off = { garbageCollector: false, namespaces: false, serviceAccounts: false, rootCa: false };
    const more = { clusterRoleAggregation: false, bootstrapSigner: false, tokenCleaner: false };
    return { enabled: { ...off, ...more, validatingAdmissionPolicyStatus: false } };
  }
  if (Array.isArray(option))
    return { enabled: {}, selection: parseControllers((option as readonly string[]).join(",")) };
  return { enabled: option as ControllerSwitches };
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? defaultLog;
  const adminToken = options.adminToken ?? randomBytes(32).toString("base64url");
  let closing = false;
  const stopping = new AbortController();
  // Every open watch listens for the shutdown.
  setMaxListeners(0, stopping.signal);
  const requests = new RequestWaitGroup();
  const requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
  const livez: HealthCheck[] = [ping];
  const store = options.store ?? new MemoryStore();
  const resources = new ResourceApi({
    store,
    kinds: new KindRegistry(options.runtimeConfig),
    ...(options.watchHistoryWindowMs === undefined ? {} : { historyWindowMs: options.watchHistoryWindowMs }),
  });
  const certificates = options.insecure
    ? undefined
    : (options.certificates ?? createServingCertificates(servingNames(host)));
  resources.addAdmission(namespaceLifecycle(resources));
  const accessControl = startAccessControl(resources, {
    ...(options.authentication === undefined ? {} : { authentication: options.authentication }),
    ...(options.authorization === undefined ? {} : { authorization: options.authorization }),
    adminToken,
    ...(certificates === undefined ? {} : { caCert: certificates.caCert }),
    serviceAccountSigningKey: options.serviceAccountSigningKey ?? generateSigningKey(),
    log,
  });
  const access = accessControl.access;
  resources.addAdmission(
    validatingAdmissionPolicy(resources, {
      environment: admissionPolicyEnvironment,
      authorizer: celAuthorizer(() => access.authorizer),
    }),
  );
  const state: ServerState = {
    access,
    address: "",
    health: { livez, readyz: [...livez, shutdownCheck(() => closing)] },
    limits: {
      minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? 1800,
      requestTimeoutMs,
      stopping: stopping.signal,
      inFlight: new InFlightLimit({
        readOnly: options.maxRequestsInflight ?? defaultInFlightLimits.readOnly,
        mutating: options.maxMutatingRequestsInflight ?? defaultInFlightLimits.mutating,
      }),
      requests,
    },
    log,
    debug: options.debug ?? (() => {}),
    openapi: new OpenApiDocuments(resources.kinds.builtinTurnedOff(), resources.kinds.groupVersions()),
    resources,
    ...(options.audit === undefined ? {} : { audit: options.audit }),
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => serveRequest(state, req, res);
  const timeouts = options.connectionTimeouts ?? {};
  const serverOptions: ServerOptions = {
    maxHeaderSize: maxHeaderBytes,
    keepAliveTimeout: timeouts.idleMs ?? idleTimeoutMs,
    headersTimeout: timeouts.headersMs ?? headersTimeoutMs,
    // The request deadline (the timeout stage) bounds a slow body, as in kube; Node's own bound is not needed.
    requestTimeout: 0,
    // How often Node checks headersTimeout: often enough that short test bounds hold.
    connectionsCheckingInterval: Math.min(30_000, Math.max(100, (timeouts.headersMs ?? headersTimeoutMs) / 4)),
  };
  const server: Server = certificates
    ? createHttpsServer(
        {
          ...serverOptions,
          cert: certificates.cert,
          key: certificates.key,
          handshakeTimeout: timeouts.headersMs ?? headersTimeoutMs,
          ...accessControl.tlsOptions,
        },
        handle,
      )
    : createHttpServer(serverOptions, handle);
  serveSpecialRequests(server, state);
  const connections = new ConnectionTracker(server, certificates !== undefined, timeouts.headersMs ?? headersTimeoutMs);
  const address = await listen(server, options.port ?? 0, host);
  // A wildcard address is not one a client can dial; the certificate names 127.0.0.1.
  const reachable = address.address === "0.0.0.0" || address.address === "::" ? "127.0.0.1" : address.address;
  const hostPart = reachable.includes(":") ? `[${reachable}]` : reachable;
  state.address = `${hostPart}:${address.port}`;
  const url = `${certificates ? "https" : "http"}://${state.address}`;
  try {
    state.openIdMetadata = await openIDMetadata({
      issuer: accessControl.serviceAccounts.issuer.issuer,
      ...(options.authentication?.serviceAccountJwksUri === undefined
        ? {}
        : { jwksUri: options.authentication.serviceAccountJwksUri }),
      externalAddress: state.address,
      keys: accessControl.serviceAccounts.keys,
    });
  } catch (error) {
    // kube serves no discovery documents for an issuer that is not an https URL, and goes on.
    log("service account issuer discovery not served", error);
  }

  // CustomResourceDefinitions are served by the API server itself, not by the controller manager.
  for (const gv of resources.kinds.groupVersions().filter((g) => !g.enabledByDefault)) {
    await state.openapi.enableBuiltin(gv);
  }
  const definitions = new AbortController();
  let definitionsStopped = Promise.resolve();
  if (resources.kinds.servesBuiltin("apiextensions.k8s.io", "v1")) {
    const crds = new CrdController(resources, { signal: definitions.signal, log, openapi: state.openapi });
    await crds.restore();
    definitionsStopped = crds.run();
  }
  const controllers = startControllers(resources, {
    log,
    ...(certificates === undefined ? {} : { caCert: certificates.caCert }),
    server: url,
    ...controllerOptions(options.controllers),
  });
  // The system namespaces exist, and the default roles with them, before the server counts as started.
  await controllers.ready;
  if (accessControl.rbac) await reconcileBootstrapPolicy(resources);
  await accessControl.ready;

  /**
   * kube-apiserver's graceful shutdown: /readyz fails at once; after the shutdown delay the listener closes,
   * watches end cleanly, and the requests in flight are answered (new ones on open connections get a 503
   * telling them to retry) within the request timeout; then the connections close and the store with them.
   */
  const shutDown = async () => {
    closing = true;
    if (options.shutdownDelayMs !== undefined && options.shutdownDelayMs > 0) await delay(options.shutdownDelayMs);
    // Stop accepting without Node's server.close(), which would also reset connections accepted a moment ago.
    const listenerClosed = new Promise<void>((resolve) => netServerClose.call(server, () => resolve()));
    stopping.abort();
    const drained = Promise.race([requests.drain(), delay(requestTimeoutMs)]);
    await Promise.all([drained, connections.shutDown(newConnectionGraceMs, requestTimeoutMs)]);
    await listenerClosed;
    // Now that no connection is left, this only stops Node's connection checks.
    server.close(() => {});
    definitions.abort();
    await definitionsStopped;
    await controllers.stop();
    await accessControl.close();
    resources.close();
    await store.close();
  };
  let closed: Promise<void> | undefined;

  const credential =
    certificates?.caKey === undefined
      ? { token: adminToken }
      : issueClientCertificate(
          { cert: certificates.caCert, key: certificates.caKey },
          {
            commonName: adminUser.name,
            organizations: [...adminUser.groups.filter((g) => g !== "system:authenticated")],
          },
        );
  return {
    url,
    adminToken,
    kubeconfig: renderKubeconfig({
      server: url,
      credential,
      ...(certificates ? { caCert: certificates.caCert } : {}),
    }),
    close() {
      closed ??= shutDown();
      return closed;
    },
  };
}
