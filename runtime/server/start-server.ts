// Starts one isolated kapi server: HTTPS (or plain HTTP) on 127.0.0.1 and a free port unless told otherwise,
// with a fresh admin token and, unless given, a fresh self-signed CA and serving certificate, an admin client
// certificate from that CA (made when the kubeconfig is first read), and a fresh service account signing key.
// With `listen: false` it has no listener, and answers only through request().

import { type KeyObject, randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import { strategies } from "../../generated/strategies.js";
import { adminUser } from "../access/user-info.js";
import { type AdmissionOptions, admissionChain, enabledAdmissionPlugins } from "../admission/admission-chain.js";
import { emptyAdmissionConfiguration, readAdmissionConfiguration } from "../admission/admission-configuration.js";
import { AdmissionMetrics } from "../admission/admission-metrics.js";
import { type AuditOption, createServerAudit } from "../audit/server-audit.js";
import { openIDMetadata } from "../authn/service-account/openid-metadata.js";
import { generateSigningKey } from "../authn/service-account/signing-keys.js";
import type { AuthorizationOptions } from "../authz/authorization-config.js";
import { reconcileBootstrapPolicy } from "../authz/rbac/reconcile-bootstrap-policy.js";
import { seedBootstrapPolicy } from "../authz/rbac/seed-bootstrap-policy.js";
import { clusterAuthenticationInfo } from "../controllers/cluster-authentication-trust.js";
import { parseControllers } from "../controllers/controller-selection.js";
import {
  type ControllerSwitches,
  type RunningControllers,
  startControllers,
} from "../controllers/start-controllers.js";
import { CrdController } from "../crd/crd-controller.js";
import { FeatureGates } from "../features/feature-gates.js";
import { FlowControl } from "../flowcontrol/flow-control.js";
import { FlowControlConfig } from "../flowcontrol/flow-control-config.js";
import { renderKubeconfig } from "../http/admin-kubeconfig.js";
import {
  clientTrustBundle,
  createServingCertificates,
  issueClientCertificate,
  type ServingCertificates,
} from "../http/certificates.js";
import type { ErrorLog } from "../http/write-error.js";
import { registerFeatureGates } from "../metrics/feature-metrics.js";
import { MetricRegistry } from "../metrics/metric-registry.js";
import { registerProcessMetrics } from "../metrics/process-metrics.js";
import { requestMetrics } from "../metrics/request-metrics.js";
import { InstrumentedStore, registerObjectCounts, registerStorageSize } from "../metrics/storage-metrics.js";
import { OpenApiDocuments } from "../openapi/openapi-documents.js";
import { KindRegistry } from "../registry/kind-registry.js";
import type { RuntimeConfig } from "../registry/runtime-config.js";
import { ResourceApi } from "../resources/resource-api.js";
import { storagePrefix, storageResourceOf } from "../resources/storage-key.js";
import { defaultAdvertiseAddress, parseAdvertiseAddress } from "../service-network/advertise-address.js";
import { ServiceNetwork, serviceNetworkKey } from "../service-network/service-network.js";
import { serviceNetworkConfig } from "../service-network/service-network-config.js";
import { MemoryStore } from "../storage/memory-store.js";
import { SqliteStore } from "../storage/sqlite-store.js";
import type { Store } from "../storage/store.js";
import { defaultCompactionIntervalMs, StoreCompactor } from "../storage/store-compactor.js";
import { podCapabilitiesKey } from "../strategies/pod-spec-validation.js";
import type { ServerState } from "./context.js";
import { type HealthCheck, LogCheck, ping, shutdownCheck, storeCheck } from "./endpoints/health.js";
import { versionInfo } from "./endpoints/version.js";

import { type HttpListener, listenForClients } from "./http-listener.js";
import { goawayChanceError } from "./http2-settings.js";
import { defaultInFlightLimits, InFlightLimit } from "./in-flight-limit.js";
import type { InProcessRequest } from "./in-process-request.js";
import { PostStartHooks } from "./post-start-hooks.js";
import { RequestWaitGroup } from "./request-wait-group.js";
import { serveInProcess } from "./serve-in-process.js";
import { type AuthenticationFlags, startAccessControl } from "./start-access-control.js";
import { storageReadiness } from "./storage-readiness.js";

/**
 * kube-apiserver's readiness check of its informers: the RBAC index and the node authorizer's graph have
 * their first lists (the watch caches serve once they open); never, when RBAC's API is off and the RBAC
 * informers cannot list.
 */
function informerSync(synced: () => boolean, rbacUnserved: boolean): HealthCheck {
  return {
    name: "informer-sync",
    check() {
      if (rbacUnserved) throw new Error("the RBAC informers cannot list: rbac.authorization.k8s.io/v1 is not served");
      if (!synced()) throw new Error("informers not synced yet");
    },
  };
}

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
   * `--shutdown-send-retry-after`: after the shutdown delay the server keeps listening until the requests in
   * flight are answered, and answers new ones 429 with `Retry-After: 5` and `Connection: close`.
   */
  shutdownSendRetryAfter?: boolean;
  /** `--livez-grace-period` in milliseconds: /livez counts unfinished post-start hooks as ok this long after start. */
  livezGracePeriodMs?: number;
  /**
   * `--feature-gates`: gates set over kube-apiserver v1.36's defaults (docs/feature-gates.md). An unknown gate,
   * or a locked one set away from its default, fails the start.
   */
  featureGates?: Readonly<Record<string, boolean>>;
  /**
   * `--enable-priority-and-fairness` (default true): API Priority and Fairness limits requests, with the
   * server's concurrency limit the sum of the two in-flight limits; false: the max-in-flight limits do.
   */
  enablePriorityAndFairness?: boolean;
  /**
   * Connection bounds of kube-apiserver's Go HTTP server: idle keep-alive connections close after `idleMs`
   * (90 s), and a request's headers (and the TLS handshake) must arrive within `headersMs` (32 s).
   */
  connectionTimeouts?: { idleMs?: number; headersMs?: number };
  /** `--disable-http2-serving`: HTTPS offers http/1.1 alone by ALPN; default h2 and http/1.1, as kube-apiserver. */
  disableHttp2Serving?: boolean;
  /** `--http2-max-streams-per-connection`: concurrent HTTP/2 streams per connection; 0 or absent: 100. */
  http2MaxStreamsPerConnection?: number;
  /** `--goaway-chance`: the fraction (0 to 0.02) of HTTP/2 requests after which their connection gets a GOAWAY. */
  goawayChance?: number;
  /** The store objects live in; default a new in-memory store. The server closes it on close(). */
  store?: Store;
  /**
   * `--etcd-compaction-interval`: how often the store's history is compacted, to the revision of the previous
   * compaction tick (docs/storage.md); default 5 minutes, 0 never. A follower leaves it to the store's owner.
   */
  compactionIntervalMs?: number;
  /** How long watch history stays servable; default 5 minutes. */
  watchHistoryWindowMs?: number;
  /**
   * The in-server controllers (docs/controllers.md): `true` (default) runs kube-controller-manager's default
   * set, `false` all but the system namespaces kube-apiserver itself creates, an object switches them one by
   * one, and a list selects them as kube-controller-manager's `--controllers` does.
   */
  controllers?: boolean | ControllerSwitches | readonly string[];
  /**
   * Auditing (docs/audit.md): a sink receiving every request's events at the Metadata level, or `{ policy, sink }`,
   * or kube-apiserver's audit flags (`{ flags }`); no auditing without it.
   */
  audit?: AuditOption;
  /** kube-apiserver's authentication flags (docs/authentication.md). */
  authentication?: AuthenticationFlags;
  /** kube-apiserver's authorization flags (docs/authorization.md); default `--authorization-mode=Node,RBAC`. */
  authorization?: AuthorizationOptions;
  /** Signs service account tokens unless `--service-account-signing-key-file` is given; default a new key. */
  serviceAccountSigningKey?: KeyObject;
  /** `--service-cluster-ip-range`: one CIDR, or two of different families; default 10.0.0.0/24 (docs/services.md). */
  serviceClusterIPRange?: string;
  /** `--service-node-port-range`: `low-high`, `low+offset` or one port; default 30000-32767. */
  serviceNodePortRange?: string;
  /**
   * `--advertise-address`, published in the `default/kubernetes` Endpoints; default the host's address
   * (the bind address when it is a concrete, non-loopback one; docs/services.md).
   */
  advertiseAddress?: string;
  /** kube-apiserver's `--runtime-config`: group/versions served beyond or instead of the default ones. */
  runtimeConfig?: RuntimeConfig;
  /** `--allow-privileged`: pods and pod templates may have privileged containers; default false, as kube's. */
  allowPrivileged?: boolean;
  /**
   * kube-apiserver's admission flags (docs/admission.md): plugins on beyond v1.36's default set or off, and
   * the AdmissionConfiguration file with their configurations. An unknown plugin name fails the start.
   */
  admission?: AdmissionOptions;
  /** `--show-hidden-metrics-for-version`: the previous minor release (`1.35`) shows the hidden metric families. */
  showHiddenMetricsForVersion?: string;
  /**
   * kapi's own (`kapi serve --workers`, docs/workers.md): this server is one of several serving a store that
   * another server owns, and that one alone runs the controllers and writes the bootstrap objects.
   */
  follower?: boolean;
  /**
   * kapi's own (docs/workers.md): the URL clients reach this server's API at when the listener is another
   * process's (the workers' shared port); the controllers publish it as a listener's own URL would be.
   */
  servedUrl?: string;
}

/** The options of a server without a listener. */
export interface InProcessServerOptions extends StartServerOptions {
  /**
   * No listener at all (no port, no TLS handshake): requests are answered through `request()` alone, and the
   * server has no `url` or `kubeconfig`; `host`, `port` and `connectionTimeouts` go unused.
   */
  listen: false;
}

/** A started server, with or without a listener. */
export interface InProcessServer {
  /** The admin bearer token. */
  adminToken: string;
  /** The server's metric families (/metrics), for code outside the request path. */
  metrics: MetricRegistry;
  /**
   * Answers one request through the server's pipeline (authentication, authorization, admission, …) as if it
   * came over HTTP, without a socket. Resolves once the response's head is sent: a watch's body then streams
   * (read it with `watchEvents`; cancelling the body ends the watch). Without Authorization in its headers
   * (and unless `anonymous`) it carries the admin token.
   */
  request(request: InProcessRequest): Promise<Response>;
  /**
   * The server's ResourceApi: every verb on every served kind (get, list, watch, create, update, patch, apply,
   * delete, status and scale), through the same admission, validation and storage as HTTP requests, acting
   * as the in-server controllers do (no user, no authorization).
   */
  resources: ResourceApi;
  close(): Promise<void>;
}

/** A server listening for clients. */
export interface RunningServer extends InProcessServer {
  url: string;
  /** An admin kubeconfig for this server (YAML text): a system:masters client certificate, or the token. */
  kubeconfig: string;
}

const defaultLog: ErrorLog = (message, error) => console.error(`kapi: ${message}:`, error);

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** The port of the server's URL, its scheme's default when the URL names none. */
function urlPort(url: string): number {
  const parsed = new URL(url);
  if (parsed.port !== "") return Number(parsed.port);
  return parsed.protocol === "https:" ? 443 : 80;
}

function servingNames(host: string): { dns: string[]; ips: string[] } {
  const ips = ["127.0.0.1", "::1"];
  if (host !== "0.0.0.0" && host !== "::" && !ips.includes(host)) ips.push(host);
  return { dns: ["localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"], ips };
}

/** The admin's kubeconfig: a system:masters client certificate from kapi's CA, or the token without one. */
function adminKubeconfig(url: string, adminToken: string, certificates: ServingCertificates | undefined): string {
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
  return renderKubeconfig({
    server: url,
    credential,
    ...(certificates ? { caCert: clientTrustBundle(certificates) } : {}),
  });
}

/** A follower's controllers: none, the owner of the store runs them. */
const noControllers: RunningControllers = { ready: Promise.resolve(), stop: async () => {} };

function controllerOptions(option: StartServerOptions["controllers"]): {
  enabled: ControllerSwitches;
  selection?: readonly string[];
} {
  if (option === undefined || option === true) return { enabled: {} };
  // No kube-controller-manager controller, as an empty `--controllers` list; kube-apiserver's own still run.
  if (option === false) return { enabled: {}, selection: [] };
  if (Array.isArray(option))
    return { enabled: {}, selection: parseControllers((option as readonly string[]).join(",")) };
  return { enabled: option as ControllerSwitches };
}

export function startServer(options: InProcessServerOptions): Promise<InProcessServer>;
export function startServer(options?: StartServerOptions): Promise<RunningServer>;
export async function startServer(
  options: StartServerOptions & { listen?: boolean } = {},
): Promise<InProcessServer | RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? defaultLog;
  // Bad admission flags or configuration stop the start before anything is built, as kube-apiserver's do.
  const serviceNetworkFlags = serviceNetworkConfig({
    ...(options.serviceClusterIPRange === undefined ? {} : { clusterIPRange: options.serviceClusterIPRange }),
    ...(options.serviceNodePortRange === undefined ? {} : { nodePortRange: options.serviceNodePortRange }),
  });
  const advertiseAddress =
    options.advertiseAddress === undefined
      ? defaultAdvertiseAddress(host)
      : parseAdvertiseAddress(options.advertiseAddress);
  const admissionPlugins = enabledAdmissionPlugins(options.admission);
  const goawayInvalid = goawayChanceError(options.goawayChance ?? 0);
  if (goawayInvalid !== undefined) throw new Error(goawayInvalid);
  const configFile = options.admission?.configFile;
  const admissionConfiguration =
    configFile === undefined || configFile === ""
      ? emptyAdmissionConfiguration
      : readAdmissionConfiguration(configFile);
  const metrics = new MetricRegistry(
    options.showHiddenMetricsForVersion === undefined
      ? {}
      : { showHiddenMetricsForVersion: options.showHiddenMetricsForVersion },
  );
  const serverAudit = createServerAudit(options.audit, metrics, (message) => console.error(`kapi: ${message}`));
  const adminToken = options.adminToken ?? randomBytes(32).toString("base64url");
  let closing = false;
  let notAcceptingNewRequests = false;
  const featureGates = new FeatureGates(options.featureGates);
  registerFeatureGates(metrics, featureGates.all());
  const livezGraceEndsAt = Date.now() + (options.livezGracePeriodMs ?? 0);
  const stopping = new AbortController();
  // Every open watch listens for the shutdown.
  setMaxListeners(0, stopping.signal);
  const requests = new RequestWaitGroup();
  const requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
  const store = options.store ?? new MemoryStore();
  const compactor =
    options.follower === true
      ? undefined
      : new StoreCompactor(store, options.compactionIntervalMs ?? defaultCompactionIntervalMs, (error) =>
          log("storage compaction failed", error),
        );
  const logCheck = new LogCheck(process.stderr);
  const livez: HealthCheck[] = [ping, logCheck, storeCheck("etcd", store)];
  const postStartHooks = new PostStartHooks(log);
  registerProcessMetrics(metrics, versionInfo);
  requestMetrics(metrics);
  if (store instanceof SqliteStore && store.path !== "" && store.path !== ":memory:")
    registerStorageSize(metrics, store.path);
  const resources = new ResourceApi({
    store: new InstrumentedStore(store, metrics),
    kinds: new KindRegistry({
      ...(options.runtimeConfig === undefined ? {} : { runtimeConfig: options.runtimeConfig }),
      strategies,
    }),
    ...(options.watchHistoryWindowMs === undefined ? {} : { historyWindowMs: options.watchHistoryWindowMs }),
    metrics,
  });
  const certificates = options.insecure
    ? undefined
    : (options.certificates ?? createServingCertificates(servingNames(host)));
  const accessControl = startAccessControl(resources, {
    ...(options.authentication === undefined ? {} : { authentication: options.authentication }),
    ...(options.authorization === undefined ? {} : { authorization: options.authorization }),
    adminToken,
    ...(certificates === undefined ? {} : { caCert: certificates.caCert }),
    serviceAccountSigningKey: options.serviceAccountSigningKey ?? generateSigningKey(),
    certificateUid: featureGates.enabled("AllowParsingUserUIDFromCertAuth"),
    metrics,
    log,
  });
  // Access control's watchers (the RBAC index, the node graph) are kapi's shared informers, started now.
  postStartHooks.register("generic-apiserver-start-informers", Promise.resolve());
  const access = accessControl.access;
  const authorizer = () => access.authorizer;
  const rbac = accessControl.rbac === undefined ? {} : { rbac: accessControl.rbac };
  let informersSynced = false;
  void accessControl.ready.then(() => {
    informersSynced = true;
  });
  const rbacUnserved =
    accessControl.rbac !== undefined && !resources.kinds.servesBuiltin("rbac.authorization.k8s.io", "v1");
  registerObjectCounts(metrics, store, () =>
    resources.kinds.storedResources().map((kind) => {
      const stored = storageResourceOf(kind);
      return { group: stored.group, resource: stored.resource, prefix: storagePrefix(stored) };
    }),
  );
  const admissionMetrics = new AdmissionMetrics(metrics);
  const chain = admissionChain(
    {
      resources,
      authorizer,
      ...rbac,
      metrics: admissionMetrics,
      log,
      defaultTolerationSeconds: {
        notReady: options.admission?.defaultNotReadyTolerationSeconds ?? 300,
        unreachable: options.admission?.defaultUnreachableTolerationSeconds ?? 300,
      },
      featureGates,
    },
    admissionPlugins,
    admissionConfiguration,
  );
  for (const plugin of chain) resources.addAdmission(plugin);
  // kube's admission initializer readies the kind mapper its plugins share; kapi's plugins map kinds through
  // the server's KindRegistry, current at once, so they are ready as soon as the chain is built.
  postStartHooks.register("start-apiserver-admission-initializer", Promise.resolve());
  const serviceNetwork = new ServiceNetwork(resources, serviceNetworkFlags, log);
  resources.context.locals.set(serviceNetworkKey, serviceNetwork);
  resources.context.locals.set(podCapabilitiesKey, { allowPrivileged: options.allowPrivileged ?? false });
  const state: ServerState = {
    access,
    address: "",
    health: {
      livez,
      readyz: [...livez, storeCheck("etcd-readiness", store), informerSync(() => informersSynced, rbacUnserved)],
      postStartHooks,
      shutdown: shutdownCheck(() => closing),
      livezGraceEndsAt,
    },
    featureGates,
    limits: {
      minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? 1800,
      requestTimeoutMs,
      stopping: stopping.signal,
      inFlight: new InFlightLimit({
        readOnly: options.maxRequestsInflight ?? defaultInFlightLimits.readOnly,
        mutating: options.maxMutatingRequestsInflight ?? defaultInFlightLimits.mutating,
      }),
      requests,
      notAcceptingNewRequests: () => notAcceptingNewRequests,
    },
    log,
    admissionMetrics,
    metrics,
    ...(options.enablePriorityAndFairness === false
      ? {}
      : {
          flowControl: new FlowControl(
            (options.maxRequestsInflight ?? defaultInFlightLimits.readOnly) +
              (options.maxMutatingRequestsInflight ?? defaultInFlightLimits.mutating),
            metrics,
          ),
        }),
    debug: options.debug ?? (() => {}),
    openapi: new OpenApiDocuments(resources.kinds.builtinTurnedOff(), resources.kinds.groupVersions()),
    resources,
    ...(serverAudit === undefined ? {} : { audit: serverAudit }),
  };

  let listener: HttpListener | undefined;
  if (options.listen !== false) {
    listener = await listenForClients(state, {
      host,
      port: options.port ?? 0,
      ...(certificates === undefined ? {} : { certificates }),
      tlsOptions: accessControl.tlsOptions,
      ...(options.connectionTimeouts === undefined ? {} : { connectionTimeouts: options.connectionTimeouts }),
      http2: {
        ...(options.disableHttp2Serving === undefined ? {} : { disabled: options.disableHttp2Serving }),
        ...(options.http2MaxStreamsPerConnection === undefined
          ? {}
          : { maxStreamsPerConnection: options.http2MaxStreamsPerConnection }),
        ...(options.goawayChance === undefined ? {} : { goawayChance: options.goawayChance }),
      },
    });
    state.address = listener.address;
  }
  const url = listener?.url ?? options.servedUrl;
  if (listener === undefined && url !== undefined) state.address = new URL(url).host;
  const jwksUri = options.authentication?.serviceAccountJwksUri;
  // The default JWKS URI is on the server's address: without a listener there is none to name.
  if (listener === undefined && jwksUri === undefined) {
    state.debug("service account issuer discovery not served: no listener, and no --service-account-jwks-uri");
  } else {
    try {
      state.openIdMetadata = await openIDMetadata({
        issuer: accessControl.serviceAccounts.issuer.issuer,
        ...(jwksUri === undefined ? {} : { jwksUri }),
        externalAddress: state.address,
        keys: accessControl.serviceAccounts.keys,
      });
    } catch (error) {
      // kube serves no discovery documents for an issuer that is not an https URL, and goes on.
      log("service account issuer discovery not served", error);
    }
  }

  // CustomResourceDefinitions are served by the API server itself, not by the controller manager.
  // So are built-in group/versions served with some resources off: their documents are built from what is served.
  const narrowed = resources.kinds.builtinNarrowed();
  for (const gv of resources.kinds.groupVersions().filter((g) => !g.enabledByDefault || narrowed.includes(g))) {
    await state.openapi.enableBuiltin(gv);
  }
  const definitions = new AbortController();
  let definitionsStopped = Promise.resolve();
  if (resources.kinds.servesBuiltin("apiextensions.k8s.io", "v1")) {
    const crds = new CrdController(resources, { signal: definitions.signal, log, openapi: state.openapi });
    const restored = crds.restore();
    postStartHooks.register("crd-informer-synced", restored);
    await restored;
    definitionsStopped = crds.run();
    // One controller follows the definitions and serves them: kube's apiextensions informers and controllers.
    postStartHooks.register("start-apiextensions-informers", Promise.resolve());
    postStartHooks.register("start-apiextensions-controllers", Promise.resolve());
  }
  // Settles when the boot sequence (controllers' first syncs, bootstrap writes) has.
  let markBooted: () => void = () => {};
  const booted = new Promise<void>((resolve) => {
    markBooted = resolve;
  });
  if (featureGates.enabled("WatchCacheInitializationPostStartHook")) {
    postStartHooks.register("storage-readiness", storageReadiness(resources, booted));
  }
  // The configuration consumer follows the FlowSchemas and PriorityLevelConfigurations as kube-apiserver's does.
  const flowControlStop = new AbortController();
  let flowControlStopped = Promise.resolve();
  if (state.flowControl !== undefined) {
    const consumer = new FlowControlConfig(resources, state.flowControl, log);
    flowControlStopped = consumer.run(flowControlStop.signal);
    postStartHooks.register("priority-and-fairness-config-consumer", Promise.resolve());
    postStartHooks.register("priority-and-fairness-filter", consumer.synced());
  }
  const controllers =
    options.follower === true
      ? noControllers
      : startControllers(resources, {
          log,
          authorizer,
          postStartHook: (name, done) => postStartHooks.register(name, done),
          bootSequenceCheck: ({ check, passed }) => postStartHooks.addCheck(check, passed),
          // The client CAs access control trusts: --client-ca-file's and kapi's own (start-access-control.ts).
          clusterAuthentication: clusterAuthenticationInfo(options.authentication ?? {}, certificates?.caCert),
          featureGates,
          ...(certificates === undefined ? {} : { caCert: clientTrustBundle(certificates) }),
          ...(certificates?.caKey === undefined
            ? {}
            : { signingCa: { cert: certificates.caCert, key: certificates.caKey } }),
          ...(url === undefined ? {} : { server: url }),
          ...controllerOptions(options.controllers),
          serviceNetwork: {
            network: serviceNetwork,
            ...(url === undefined ? {} : { endpoint: { advertiseAddress, port: urlPort(url) } }),
          },
        });
  // The system namespaces exist, and the default roles with them, before the server counts as started.
  await controllers.ready.finally(markBooted);
  // RBAC authorizing with its API switched off: as kube-apiserver, the server serves (system:masters only,
  // since the authorizer has no policy), writes no policy and is never ready (informer-sync).
  const rbacIndex = rbacUnserved ? undefined : accessControl.rbac;
  if (rbacIndex !== undefined) {
    const bootstrapRoles = (async () => {
      // A store of the server's own is new: the default policy is written into it as its creation would write it.
      const written = options.store === undefined ? await seedBootstrapPolicy(resources) : undefined;
      // A follower's store is owned by a server that reconciled the policy before any follower started.
      if (options.store !== undefined && options.follower !== true) await reconcileBootstrapPolicy(resources);
      // The authorizer reads the policy from its index, which follows the store's events a little behind.
      await rbacIndex.synced(written);
    })();
    postStartHooks.register("rbac/bootstrap-roles", bootstrapRoles);
    await bootstrapRoles;
  }
  await accessControl.ready;
  // The server counts as started once every start-up step is done (or failed, and was logged).
  await postStartHooks.settled();

  /**
   * kube-apiserver's graceful shutdown: /readyz fails at once; after the shutdown delay the listener closes,
   * watches end cleanly, and the requests in flight are answered (new ones on open connections get a 503
   * telling them to retry) within the request timeout; then the connections close and the store with them.
   */
  const shutDown = async () => {
    closing = true;
    logCheck.stop();
    if (options.shutdownDelayMs !== undefined && options.shutdownDelayMs > 0) await delay(options.shutdownDelayMs);
    if (options.shutdownSendRetryAfter === true) {
      // kube keeps listening until the requests in flight are answered, telling new ones to come back later.
      notAcceptingNewRequests = true;
      stopping.abort();
      await Promise.race([requests.drain(), delay(requestTimeoutMs)]);
    }
    const listenerClosed = listener?.stopAccepting();
    stopping.abort();
    const drained = Promise.race([requests.drain(), delay(requestTimeoutMs)]);
    await Promise.all([drained, listener?.closeConnections(requestTimeoutMs)]);
    await listenerClosed;
    listener?.close();
    definitions.abort();
    await definitionsStopped;
    flowControlStop.abort();
    await flowControlStopped;
    await controllers.stop();
    await accessControl.close();
    await serverAudit?.backend.shutdown();
    resources.close();
    await compactor?.stop();
    await store.close();
  };
  let closed: Promise<void> | undefined;
  let closedDone = false;

  const started: InProcessServer = {
    adminToken,
    metrics,
    resources,
    async request(request) {
      if (closedDone) throw new Error("kapi: the server is closed");
      return serveInProcess(state, request, adminToken);
    },
    close() {
      closed ??= shutDown().finally(() => {
        closedDone = true;
      });
      return closed;
    },
  };
  if (url === undefined) return started;
  let kubeconfig: string | undefined;
  const running: RunningServer = {
    ...started,
    url,
    // The admin client certificate is made when the kubeconfig is first read: most in-process tests never do.
    get kubeconfig() {
      kubeconfig ??= adminKubeconfig(url, adminToken, certificates);
      return kubeconfig;
    },
  };
  return running;
}
