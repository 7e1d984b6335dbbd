// `kapi serve`: a long-running server whose CA, serving certificate and service account signing key live in the
// cert directory (made on first start, reused after) and whose admin kubeconfig is written into the data directory at every start.

import cluster from "node:cluster";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { AdmissionOptions } from "../admission/admission-chain.js";
import type { AuditFlags } from "../audit/audit-flags.js";
import { loadOrCreateSigningKey } from "../authn/service-account/signing-keys.js";
import type { AuthorizationOptions } from "../authz/authorization-config.js";
import { checkInertConfigFiles, type InertConfigFiles } from "../config/inert-config-files.js";
import { createServingCertificates, type ServingCertificates } from "../http/certificates.js";
import { readServingCertificateFiles } from "../http/serving-certificate-files.js";
import { MemoryStore } from "../storage/memory-store.js";
import { SqliteStore } from "../storage/sqlite-store.js";
import type { Store } from "../storage/store.js";
import { startPrimary, startWorker } from "../workers/serve-with-workers.js";
import type { AuthenticationFlags } from "./start-access-control.js";
import { type RunningServer, type StartServerOptions, startServer } from "./start-server.js";

export interface ServeOptions {
  securePort: number;
  bindAddress: string;
  dataDir: string;
  /** Default `<dataDir>/pki`. */
  certDir?: string;
  /**
   * `--tls-cert-file` and `--tls-private-key-file`: serve with this certificate (its chain's CA certificates
   * after it) instead of the one made under the cert directory, whose CA still issues the admin's certificate.
   */
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  plainHttp: boolean;
  /** sqlite (default): `<dataDir>/kapi.db`, kept across restarts; memory: gone when the server stops. */
  storage?: "sqlite" | "memory";
  /** kube-apiserver's audit flags (--audit-policy-file, --audit-log-*, --audit-webhook-*: docs/audit.md). */
  audit?: AuditFlags;
  /** kube-apiserver's authentication flags. */
  authentication?: AuthenticationFlags;
  /** kube-apiserver's authorization flags; default `--authorization-mode=Node,RBAC`. */
  authorization?: AuthorizationOptions;
  /** A parsed `--controllers` list. */
  controllers?: readonly string[];
  /** A parsed `--runtime-config`. */
  runtimeConfig?: Readonly<Record<string, boolean>>;
  /** kube-apiserver's admission flags. */
  admission?: AdmissionOptions;
  /** kube-apiserver's request and shutdown bounds (`--max-requests-inflight`, `--request-timeout`, …). */
  limits?: Pick<
    StartServerOptions,
    | "maxRequestsInflight"
    | "maxMutatingRequestsInflight"
    | "requestTimeoutMs"
    | "minRequestTimeoutSeconds"
    | "shutdownDelayMs"
    | "enablePriorityAndFairness"
    | "livezGracePeriodMs"
    | "compactionIntervalMs"
    | "shutdownSendRetryAfter"
  >;
  /** `--service-cluster-ip-range`, `--service-node-port-range`, `--advertise-address` (docs/services.md). */
  serviceNetwork?: Pick<StartServerOptions, "serviceClusterIPRange" | "serviceNodePortRange" | "advertiseAddress">;
  /** `--disable-http2-serving`, `--http2-max-streams-per-connection`, `--goaway-chance`. */
  http2?: Pick<StartServerOptions, "disableHttp2Serving" | "http2MaxStreamsPerConnection" | "goawayChance">;
  /** `--allow-privileged`: privileged containers pass pod validation. */
  allowPrivileged?: boolean;
  /** `--show-hidden-metrics-for-version`: the previous minor release shows the hidden metric families. */
  showHiddenMetricsForVersion?: string;
  /** `--feature-gates`: the gates set over v1.36's defaults (docs/feature-gates.md). */
  featureGates?: Readonly<Record<string, boolean>>;
  /** What kube logs as warnings while reading its flags (unknown or GA feature gates); printed on stderr. */
  warnings?: readonly string[];
  /** klog's `--v`: 4 and above print debug lines (a client gone mid-request, …) to stderr. */
  verbosity?: number;
  /**
   * kapi's own `--workers` (docs/workers.md): processes serving clients on the shared port, on the store this
   * process owns; 1 (default) serves in this process alone.
   */
  workers?: number;
  /** `--egress-selector-config-file`, `--tracing-config-file`: checked at start, no effect (docs/configuration-files.md). */
  inertConfigFiles?: InertConfigFiles;
}

export interface Serving {
  server: RunningServer;
  kubeconfigPath: string;
}

const servingDns = ["localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"];

function loadOrCreateCertificates(dir: string, bindAddress: string): ServingCertificates {
  const paths = {
    caCert: join(dir, "ca.crt"),
    caKey: join(dir, "ca.key"),
    cert: join(dir, "apiserver.crt"),
    key: join(dir, "apiserver.key"),
  };
  // A directory from before the CA key was kept is made anew: the admin certificate needs the key.
  if (Object.values(paths).every((p) => existsSync(p))) {
    return {
      caCert: readFileSync(paths.caCert, "utf8"),
      caKey: readFileSync(paths.caKey, "utf8"),
      cert: readFileSync(paths.cert, "utf8"),
      key: readFileSync(paths.key, "utf8"),
    };
  }
  const ips = [...new Set(["127.0.0.1", "::1", bindAddress])].filter((ip) => ip !== "0.0.0.0" && ip !== "::");
  const created = createServingCertificates({ dns: servingDns, ips });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(paths.caCert, created.caCert);
  writeFileSync(paths.cert, created.cert);
  writeFileSync(paths.key, created.key, { mode: 0o600 });
  writeFileSync(paths.caKey, created.caKey ?? "", { mode: 0o600 });
  return created;
}

/** The cert directory's CA and serving certificate, the serving one replaced by the TLS flags' files when given. */
function servingCertificates(options: ServeOptions, certDir: string): ServingCertificates {
  const certFile = options.tlsCertFile ?? "";
  const keyFile = options.tlsPrivateKeyFile ?? "";
  // kube reads the pair before anything else starts, and refuses one of the two alone.
  const given = certFile === "" && keyFile === "" ? undefined : readServingCertificateFiles(certFile, keyFile);
  const made = loadOrCreateCertificates(certDir, options.bindAddress);
  if (given === undefined) return made;
  return {
    ...made,
    cert: given.cert,
    key: given.key,
    ...(given.trustedCa === undefined ? {} : { servingCa: given.trustedCa }),
  };
}

function openStore(kind: "sqlite" | "memory", dataDir: string): Store {
  return kind === "memory" ? new MemoryStore() : SqliteStore.open(join(dataDir, "kapi.db"));
}

export async function serve(options: ServeOptions): Promise<Serving> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  const certDir = options.certDir ?? join(dataDir, "pki");
  for (const notice of checkInertConfigFiles(options.inertConfigFiles ?? {})) console.error(`kapi: ${notice}`);
  const certificates = options.plainHttp ? undefined : servingCertificates(options, certDir);
  const serverOptions: StartServerOptions = {
    ...(options.authentication === undefined ? {} : { authentication: options.authentication }),
    ...(options.authorization === undefined ? {} : { authorization: options.authorization }),
    ...(options.controllers === undefined ? {} : { controllers: options.controllers }),
    ...(options.runtimeConfig === undefined ? {} : { runtimeConfig: options.runtimeConfig }),
    ...(options.admission === undefined ? {} : { admission: options.admission }),
    serviceAccountSigningKey: loadOrCreateSigningKey(certDir),
    ...(options.audit === undefined ? {} : { audit: { flags: options.audit } }),
    ...options.limits,
    ...(options.featureGates === undefined ? {} : { featureGates: options.featureGates }),
    ...options.serviceNetwork,
    ...options.http2,
    ...(options.allowPrivileged === undefined ? {} : { allowPrivileged: options.allowPrivileged }),
    ...(options.showHiddenMetricsForVersion === undefined
      ? {}
      : { showHiddenMetricsForVersion: options.showHiddenMetricsForVersion }),
    ...((options.verbosity ?? 0) >= 4 ? { debug: (line: string) => console.error(`kapi: ${line}`) } : {}),
    host: options.bindAddress,
    port: options.securePort,
    ...(certificates === undefined ? { insecure: true } : { certificates }),
  };
  const kubeconfigPath = join(dataDir, "admin.kubeconfig");
  // kapi's `--workers` (docs/workers.md): a worker serves on the primary's store and leaves the files to it.
  if (cluster.isWorker) return { server: await startWorker(serverOptions), kubeconfigPath };
  const store = openStore(options.storage ?? "sqlite", dataDir);
  const workers = options.workers ?? 1;
  const server =
    workers > 1
      ? (await startPrimary({ workers, store, server: serverOptions })).server
      : await startServer({ store, ...serverOptions });
  writeFileSync(kubeconfigPath, server.kubeconfig, { mode: 0o600 });
  chmodSync(kubeconfigPath, 0o600);
  return { server, kubeconfigPath };
}
