// Starts one isolated kapi server: HTTPS (or plain HTTP) on 127.0.0.1 and a free port unless told otherwise,
// with a fresh admin token and, unless given, a fresh self-signed CA and serving certificate.

import { randomBytes } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { namespaceLifecycle } from "../admission/namespace-lifecycle.js";
import { admissionPolicyEnvironment } from "../admission/policy/policy-environment.js";
import { validatingAdmissionPolicy } from "../admission/policy/validating-admission-policy.js";
import { BearerTokenAuthenticator } from "../authn/bearer-token.js";
import { StaticTokenAuthenticator } from "../authn/static-tokens.js";
import { adminUser } from "../authn/user.js";
import { celAuthorizer } from "../authz/cel-authorizer.js";
import { PrivilegedGroupAuthorizer } from "../authz/privileged-groups.js";
import { UnionAuthorizer } from "../authz/union.js";
import { warningHeader } from "../codecs/field-validation.js";
import { type ControllerSwitches, startControllers } from "../controllers/start-controllers.js";
import { createServingCertificates, type ServingCertificates } from "../http/certificates.js";
import { renderKubeconfig } from "../http/kubeconfig.js";
import { type ErrorLog, writeError } from "../http/write-error.js";
import { OpenApiDocuments } from "../openapi/openapi-documents.js";
import { ResourceApi } from "../resources/resource-api.js";
import { MemoryStore } from "../storage/memory-store.js";
import type { Store } from "../storage/store.js";
import type { AccessControl } from "./access-control.js";
import type { AuditSink } from "./audit-event.js";
import type { RequestContext, ServerState } from "./context.js";
import { type HealthCheck, ping, shutdownCheck } from "./endpoints/health.js";
import { pipeline, runStages } from "./pipeline.js";

export interface StartServerOptions {
  /** Address to listen on; default 127.0.0.1. */
  host?: string;
  /** Port to listen on; default 0, a free port. */
  port?: number;
  /** Serve plain HTTP instead of HTTPS. */
  insecure?: boolean;
  /** Certificates to serve with; default a new self-signed CA and serving certificate. */
  certificates?: ServingCertificates;
  /** Admin bearer token; default 32 random bytes. */
  adminToken?: string;
  /** Where unexpected errors and failed health checks are reported; default console.error. */
  log?: ErrorLog;
  /** The store objects live in; default a new in-memory store. The server closes it on close(). */
  store?: Store;
  /** How long watch history stays servable; default 5 minutes. */
  watchHistoryWindowMs?: number;
  /**
   * The in-server controllers (docs/controllers.md): all on by default; `false` turns off all but the
   * system namespaces kube-apiserver itself creates, an object switches them one by one.
   */
  controllers?: boolean | ControllerSwitches;
  /** Receives one audit.k8s.io/v1 Event per request (Metadata level); no auditing without it. */
  audit?: AuditSink;
}

export interface RunningServer {
  url: string;
  /** An admin kubeconfig for this server (YAML text). */
  kubeconfig: string;
  close(): Promise<void>;
}

const defaultLog: ErrorLog = (message, error) => console.error(`kapi: ${message}:`, error);

function servingNames(host: string): { dns: string[]; ips: string[] } {
  const ips = ["127.0.0.1", "::1"];
  if (host !== "0.0.0.0" && host !== "::" && !ips.includes(host)) ips.push(host);
  return { dns: ["localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"], ips };
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

function controllerSwitches(option: boolean | ControllerSwitches | undefined): ControllerSwitches {
  if (option === undefined || option === true) return {};
  if (option === false) {
    return { garbageCollector: false, namespaces: false, serviceAccounts: false, rootCa: false };
  }
  return option;
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? defaultLog;
  const adminToken = options.adminToken ?? randomBytes(32).toString("base64url");
  let closing = false;
  const livez: HealthCheck[] = [ping];
  const store = options.store ?? new MemoryStore();
  const resources = new ResourceApi({
    store,
    ...(options.watchHistoryWindowMs === undefined ? {} : { historyWindowMs: options.watchHistoryWindowMs }),
  });
  resources.addAdmission(namespaceLifecycle(resources));
  resources.addAdmission(
    validatingAdmissionPolicy(resources, {
      environment: admissionPolicyEnvironment,
      authorizer: celAuthorizer(() => access.authorizer),
    }),
  );
  const tokens = new StaticTokenAuthenticator([[adminToken, adminUser]]);
  const access: AccessControl = {
    authenticator: new BearerTokenAuthenticator(tokens),
    tokenAuthenticator: tokens,
    authorizer: new UnionAuthorizer([new PrivilegedGroupAuthorizer()]),
  };
  const state: ServerState = {
    access,
    address: "",
    health: { livez, readyz: [...livez, shutdownCheck(() => closing)] },
    log,
    openapi: new OpenApiDocuments(),
    resources,
    ...(options.audit === undefined ? {} : { audit: options.audit }),
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const ctx: RequestContext = { req, res, url: new URL(req.url ?? "/", "http://kapi"), server: state };
    runStages(pipeline, ctx).catch((error: unknown) => {
      if (ctx.warnings !== undefined && !res.headersSent) res.setHeader("Warning", ctx.warnings.map(warningHeader));
      writeError(res, error, log);
    });
  };

  const certificates = options.insecure
    ? undefined
    : (options.certificates ?? createServingCertificates(servingNames(host)));
  const server: Server = certificates
    ? createHttpsServer({ cert: certificates.cert, key: certificates.key }, handle)
    : createHttpServer(handle);
  const controllers = startControllers(resources, {
    log,
    ...(certificates === undefined ? {} : { caCert: certificates.caCert }),
    enabled: controllerSwitches(options.controllers),
  });
  // The system namespaces exist before the first request is served.
  await controllers.ready;
  const address = await listen(server, options.port ?? 0, host);
  // A wildcard address is not one a client can dial; the certificate names 127.0.0.1.
  const reachable = address.address === "0.0.0.0" || address.address === "::" ? "127.0.0.1" : address.address;
  const hostPart = reachable.includes(":") ? `[${reachable}]` : reachable;
  state.address = `${hostPart}:${address.port}`;
  const url = `${certificates ? "https" : "http"}://${state.address}`;

  return {
    url,
    kubeconfig: renderKubeconfig({
      server: url,
      credential: { token: adminToken },
      ...(certificates ? { caCert: certificates.caCert } : {}),
    }),
    async close() {
      closing = true;
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      await controllers.stop();
      resources.close();
      await store.close();
    },
  };
}
