// `kapi serve`'s flags, named and read as kube-apiserver's (and kube-controller-manager's `--controllers`):
// `--flag=value` or `--flag value`, string lists comma-separated and repeatable, booleans `--flag` or
// `--flag=true|false`, durations in Go's form (`10m`, `1h30m`).
import { type ParseArgsConfig, parseArgs } from "node:util";
import type { AdmissionOptions } from "../admission/admission-chain.js";
import { auditBooleanFlags, auditStringFlags, parseAuditFlags } from "../audit/audit-flags.js";
import type { AuthorizationOptions } from "../authz/authorization-config.js";
import { parseGoDuration } from "../authz/authorization-config.js";
import { parseControllers } from "../controllers/controller-selection.js";
import { parseFeatureGates } from "../features/feature-gates.js";
import { validateShowHiddenMetricsForVersion } from "../metrics/metric-registry.js";
import { parseRuntimeConfig } from "../registry/runtime-config.js";
import { goawayChanceError } from "../server/http2-settings.js";
import type { ServeOptions } from "../server/serve.js";
import type { AuthenticationFlags } from "../server/start-access-control.js";
import { parseAdvertiseAddress } from "../service-network/advertise-address.js";
import { parsePortRange, parseServiceClusterIPRange } from "../service-network/service-network-config.js";

const stringFlags = [
  "secure-port",
  "bind-address",
  "data-dir",
  "cert-dir",
  "tls-cert-file",
  "tls-private-key-file",
  "storage",
  "workers",
  "client-ca-file",
  "token-auth-file",
  "authentication-config",
  "requestheader-client-ca-file",
  "authentication-token-webhook-config-file",
  "authentication-token-webhook-version",
  "authentication-token-webhook-cache-ttl",
  "service-account-signing-key-file",
  "service-account-max-token-expiration",
  "service-account-jwks-uri",
  "authorization-mode",
  "authorization-config",
  "authorization-policy-file",
  "authorization-webhook-config-file",
  "authorization-webhook-version",
  "authorization-webhook-cache-authorized-ttl",
  "authorization-webhook-cache-unauthorized-ttl",
  "controllers",
  "runtime-config",
  "max-requests-inflight",
  "max-mutating-requests-inflight",
  "request-timeout",
  "min-request-timeout",
  "shutdown-delay-duration",
  "livez-grace-period",
  "etcd-compaction-interval",
  "admission-control-config-file",
  "egress-selector-config-file",
  "tracing-config-file",
  "default-not-ready-toleration-seconds",
  "default-unreachable-toleration-seconds",
  "service-cluster-ip-range",
  "service-node-port-range",
  "advertise-address",
  "show-hidden-metrics-for-version",
  "http2-max-streams-per-connection",
  "goaway-chance",
  "v",
] as const;

/** Repeatable, each value a comma-separated list (pflag's StringSlice). */
const listFlags = [
  "requestheader-allowed-names",
  "requestheader-username-headers",
  "requestheader-uid-headers",
  "requestheader-group-headers",
  "requestheader-extra-headers-prefix",
  "service-account-issuer",
  "service-account-key-file",
  "api-audiences",
  "enable-admission-plugins",
  "disable-admission-plugins",
  "admission-control",
  "feature-gates",
] as const;

/** Booleans that take `=true` or `=false` as pflag's do. */
const booleanFlags = [
  "allow-privileged",
  "anonymous-auth",
  "enable-bootstrap-token-auth",
  "enable-priority-and-fairness",
  "service-account-extend-token-expiration",
  "service-account-lookup",
  "shutdown-send-retry-after",
  "disable-http2-serving",
] as const;

type Values = { [K in (typeof stringFlags)[number] | (typeof booleanFlags)[number]]?: string } & {
  [K in (typeof listFlags)[number]]?: string[];
} & { "plain-http"?: boolean };

function bool(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === "" || value === "true") return true;
  if (value === "false") return false;
  throw new Error(
    `invalid argument "${value}" for "--${name}" flag: strconv.ParseBool: parsing "${value}": invalid syntax`,
  );
}

function list(values: string[] | undefined): string[] | undefined {
  return values?.flatMap((v) => v.split(",")).filter((v) => v !== "");
}

function durationMs(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  try {
    return Number(parseGoDuration(value) / 1_000_000n);
  } catch (error) {
    throw new Error(`invalid argument "${value}" for "--${name}" flag: ${(error as Error).message}`);
  }
}

/** pflag's int flags: a whole number, else strconv's error. */
function int(name: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = /^[+-]?\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n)) {
    throw new Error(
      `invalid argument "${value}" for "--${name}" flag: strconv.ParseInt: parsing "${value}": invalid syntax`,
    );
  }
  if (n < min) throw new Error(`--${name} must be at least ${min}, got ${n}`);
  return n;
}

/** kube-apiserver's request and shutdown bounds. */
function requestLimits(v: Values): ServeOptions["limits"] {
  const limits: NonNullable<ServeOptions["limits"]> = {};
  const readOnly = int("max-requests-inflight", v["max-requests-inflight"]);
  if (readOnly !== undefined) limits.maxRequestsInflight = readOnly;
  const mutating = int("max-mutating-requests-inflight", v["max-mutating-requests-inflight"]);
  if (mutating !== undefined) limits.maxMutatingRequestsInflight = mutating;
  const timeout = durationMs("request-timeout", v["request-timeout"]);
  if (timeout !== undefined) limits.requestTimeoutMs = timeout;
  const minTimeout = int("min-request-timeout", v["min-request-timeout"]);
  if (minTimeout !== undefined) limits.minRequestTimeoutSeconds = minTimeout;
  const delay = durationMs("shutdown-delay-duration", v["shutdown-delay-duration"]);
  if (delay !== undefined) limits.shutdownDelayMs = delay;
  const retryAfter = bool("shutdown-send-retry-after", v["shutdown-send-retry-after"]);
  if (retryAfter !== undefined) limits.shutdownSendRetryAfter = retryAfter;
  const livezGrace = durationMs("livez-grace-period", v["livez-grace-period"]);
  if (livezGrace !== undefined) limits.livezGracePeriodMs = livezGrace;
  const compaction = durationMs("etcd-compaction-interval", v["etcd-compaction-interval"]);
  if (compaction !== undefined) limits.compactionIntervalMs = compaction;
  const priorityAndFairness = bool("enable-priority-and-fairness", v["enable-priority-and-fairness"]);
  if (priorityAndFairness !== undefined) limits.enablePriorityAndFairness = priorityAndFairness;
  return Object.keys(limits).length === 0 ? undefined : limits;
}

function admission(v: Values): AdmissionOptions | undefined {
  const options: AdmissionOptions = {};
  const enable = list(v["enable-admission-plugins"]);
  if (enable !== undefined) options.enablePlugins = enable;
  const disable = list(v["disable-admission-plugins"]);
  if (disable !== undefined) options.disablePlugins = disable;
  const control = list(v["admission-control"]);
  if (control !== undefined) options.admissionControl = control;
  if (v["admission-control-config-file"] !== undefined) options.configFile = v["admission-control-config-file"];
  // pflag Int64 flags: any whole number, negative ones included.
  const notReady = int("default-not-ready-toleration-seconds", v["default-not-ready-toleration-seconds"], -(2 ** 63));
  if (notReady !== undefined) options.defaultNotReadyTolerationSeconds = notReady;
  const unreachable = int(
    "default-unreachable-toleration-seconds",
    v["default-unreachable-toleration-seconds"],
    -(2 ** 63),
  );
  if (unreachable !== undefined) options.defaultUnreachableTolerationSeconds = unreachable;
  return Object.keys(options).length === 0 ? undefined : options;
}

/** pflag accepts a bare boolean flag; node's parser wants a value for string options, so give it one. */
function withBooleanValues(args: readonly string[]): string[] {
  const names = new Set([...booleanFlags, ...auditBooleanFlags].map((f) => `--${f}`));
  return args.flatMap((arg, i) =>
    names.has(arg) && !/^(true|false)$/.test(args[i + 1] ?? "") ? [`${arg}=true`] : [arg],
  );
}

function authentication(v: Values): AuthenticationFlags {
  const flags: AuthenticationFlags = {};
  const anonymous = bool("anonymous-auth", v["anonymous-auth"]);
  if (anonymous !== undefined) flags.anonymousAuth = anonymous;
  if (v["client-ca-file"] !== undefined) flags.clientCaFile = v["client-ca-file"];
  if (v["token-auth-file"] !== undefined) flags.tokenAuthFile = v["token-auth-file"];
  if (bool("enable-bootstrap-token-auth", v["enable-bootstrap-token-auth"])) flags.enableBootstrapTokenAuth = true;
  if (v["authentication-config"] !== undefined) flags.authenticationConfig = v["authentication-config"];
  const proxyCa = v["requestheader-client-ca-file"];
  if (proxyCa !== undefined) {
    flags.requestHeader = {
      clientCaFile: proxyCa,
      allowedNames: list(v["requestheader-allowed-names"]) ?? [],
      usernameHeaders: list(v["requestheader-username-headers"]) ?? [],
      uidHeaders: list(v["requestheader-uid-headers"]) ?? [],
      groupHeaders: list(v["requestheader-group-headers"]) ?? [],
      extraHeadersPrefix: list(v["requestheader-extra-headers-prefix"]) ?? [],
    };
  }
  const webhook = v["authentication-token-webhook-config-file"];
  if (webhook !== undefined) {
    const ttl = durationMs("authentication-token-webhook-cache-ttl", v["authentication-token-webhook-cache-ttl"]);
    const version = v["authentication-token-webhook-version"];
    flags.tokenWebhook = {
      configFile: webhook,
      ...(version === undefined ? {} : { version }),
      ...(ttl === undefined ? {} : { cacheTtlMs: ttl }),
    };
  }
  const issuers = list(v["service-account-issuer"]);
  if (issuers !== undefined) flags.serviceAccountIssuer = issuers;
  const keyFiles = list(v["service-account-key-file"]);
  if (keyFiles !== undefined) flags.serviceAccountKeyFile = keyFiles;
  if (v["service-account-signing-key-file"] !== undefined) {
    flags.serviceAccountSigningKeyFile = v["service-account-signing-key-file"];
  }
  const maxExpiration = durationMs("service-account-max-token-expiration", v["service-account-max-token-expiration"]);
  if (maxExpiration !== undefined) flags.serviceAccountMaxTokenExpiration = Math.floor(maxExpiration / 1000);
  const extend = bool("service-account-extend-token-expiration", v["service-account-extend-token-expiration"]);
  if (extend !== undefined) flags.serviceAccountExtendTokenExpiration = extend;
  const lookup = bool("service-account-lookup", v["service-account-lookup"]);
  if (lookup !== undefined) flags.serviceAccountLookup = lookup;
  if (v["service-account-jwks-uri"] !== undefined) flags.serviceAccountJwksUri = v["service-account-jwks-uri"];
  const audiences = list(v["api-audiences"]);
  if (audiences !== undefined) flags.apiAudiences = audiences;
  return flags;
}

function authorization(v: Values): AuthorizationOptions | undefined {
  const options: AuthorizationOptions = {};
  if (v["authorization-mode"] !== undefined) options.authorizationMode = v["authorization-mode"];
  if (v["authorization-config"] !== undefined) options.authorizationConfig = v["authorization-config"];
  if (v["authorization-policy-file"] !== undefined) options.authorizationPolicyFile = v["authorization-policy-file"];
  const webhook = v["authorization-webhook-config-file"];
  if (webhook !== undefined) options.authorizationWebhookConfigFile = webhook;
  const version = v["authorization-webhook-version"];
  if (version !== undefined) options.authorizationWebhookVersion = version;
  const allowTtl = v["authorization-webhook-cache-authorized-ttl"];
  if (allowTtl !== undefined) options.authorizationWebhookCacheAuthorizedTtl = allowTtl;
  const denyTtl = v["authorization-webhook-cache-unauthorized-ttl"];
  if (denyTtl !== undefined) options.authorizationWebhookCacheUnauthorizedTtl = denyTtl;
  // Neither form given: kapi's default (Node,RBAC) rather than kube's AlwaysAllow.
  return Object.keys(options).length === 0 ? undefined : options;
}

/** The flags parseServeFlags reads: the kube-apiserver flags kapi honours, and kapi's own. */
export const honouredFlags: ReadonlySet<string> = new Set<string>([
  ...stringFlags,
  ...listFlags,
  ...booleanFlags,
  ...auditStringFlags,
  ...auditBooleanFlags,
  "plain-http",
]);

/** `--feature-gates`: the gates set, and kube's warnings about them (unknown, GA or deprecated gates). */
function featureGateFlags(values: string[] | undefined): Pick<ServeOptions, "featureGates" | "warnings"> {
  if (values === undefined) return {};
  const { overrides, warnings } = parseFeatureGates(values);
  return { featureGates: overrides, ...(warnings.length === 0 ? {} : { warnings }) };
}

/** Reads `kapi serve`'s arguments; a bad value throws with kube's wording where kube has one. */
export function parseServeFlags(args: readonly string[]): ServeOptions {
  const options: NonNullable<ParseArgsConfig["options"]> = Object.fromEntries([
    ...stringFlags.map((f) => [f, { type: "string" as const }]),
    ...booleanFlags.map((f) => [f, { type: "string" as const }]),
    ...[...auditStringFlags, ...auditBooleanFlags].map((f) => [f, { type: "string" as const }]),
    ...listFlags.map((f) => [f, { type: "string" as const, multiple: true }]),
    ["plain-http", { type: "boolean" as const }],
  ]);
  const { values } = parseArgs({ args: withBooleanValues(args), options, strict: true }) as { values: Values };
  const storage = values.storage ?? "sqlite";
  if (storage !== "sqlite" && storage !== "memory") throw new Error(`invalid --storage ${storage}: sqlite or memory`);
  const portText = values["secure-port"] ?? "6443";
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --secure-port ${portText}`);
  const auth = authentication(values);
  const authz = authorization(values);
  const controllers = values.controllers;
  const limits = requestLimits(values);
  const verbosity = int("v", values.v);
  // kapi's own: processes serving on the shared port (docs/workers.md).
  const workers = int("workers", values.workers, 1);
  const admissionFlags = admission(values);
  const allowPrivileged = bool("allow-privileged", values["allow-privileged"]);
  const showHidden = values["show-hidden-metrics-for-version"];
  const showHiddenInvalid = validateShowHiddenMetricsForVersion(showHidden ?? "");
  if (showHiddenInvalid !== undefined) throw new Error(showHiddenInvalid);
  const audit = parseAuditFlags(values as Readonly<Record<string, string | undefined>>);
  return {
    securePort: port,
    bindAddress: values["bind-address"] ?? "127.0.0.1",
    dataDir: values["data-dir"] ?? "./kapi-data",
    ...(values["cert-dir"] === undefined ? {} : { certDir: values["cert-dir"] }),
    ...(values["tls-cert-file"] === undefined ? {} : { tlsCertFile: values["tls-cert-file"] }),
    ...(values["tls-private-key-file"] === undefined ? {} : { tlsPrivateKeyFile: values["tls-private-key-file"] }),
    plainHttp: values["plain-http"] ?? false,
    storage,
    ...featureGateFlags(values["feature-gates"]),
    ...(audit === undefined ? {} : { audit }),
    ...(Object.keys(auth).length === 0 ? {} : { authentication: auth }),
    ...(authz === undefined ? {} : { authorization: authz }),
    ...(controllers === undefined ? {} : { controllers: parseControllers(controllers) }),
    ...(values["runtime-config"] === undefined ? {} : { runtimeConfig: parseRuntimeConfig(values["runtime-config"]) }),
    ...(limits === undefined ? {} : { limits }),
    ...(admissionFlags === undefined ? {} : { admission: admissionFlags }),
    ...(allowPrivileged === undefined ? {} : { allowPrivileged }),
    ...(showHidden === undefined ? {} : { showHiddenMetricsForVersion: showHidden }),
    ...http2Flags(values),
    ...(verbosity === undefined ? {} : { verbosity }),
    ...(workers === undefined ? {} : { workers }),
    ...serviceNetworkFlags(values),
    ...inertConfigFileFlags(values),
  };
}

/**
 * `--disable-http2-serving`, `--http2-max-streams-per-connection` (any whole number: kube uses 100 for 0 or
 * less) and `--goaway-chance`.
 */
function http2Flags(v: Values): Pick<ServeOptions, "http2"> {
  const http2: NonNullable<ServeOptions["http2"]> = {};
  const disabled = bool("disable-http2-serving", v["disable-http2-serving"]);
  if (disabled !== undefined) http2.disableHttp2Serving = disabled;
  const streams = int("http2-max-streams-per-connection", v["http2-max-streams-per-connection"], -(2 ** 63));
  if (streams !== undefined) http2.http2MaxStreamsPerConnection = streams;
  const chance = v["goaway-chance"];
  if (chance !== undefined) {
    const value = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(chance) ? Number(chance) : Number.NaN;
    if (Number.isNaN(value)) {
      throw new Error(
        `invalid argument "${chance}" for "--goaway-chance" flag: strconv.ParseFloat: parsing "${chance}": invalid syntax`,
      );
    }
    const invalid = goawayChanceError(value);
    if (invalid !== undefined) throw new Error(invalid);
    http2.goawayChance = value;
  }
  return Object.keys(http2).length === 0 ? {} : { http2 };
}

/** `--egress-selector-config-file`, `--tracing-config-file`: validated at start, without effect (docs/configuration-files.md). */
function inertConfigFileFlags(v: Values): Pick<ServeOptions, "inertConfigFiles"> {
  const files: NonNullable<ServeOptions["inertConfigFiles"]> = {};
  if (v["egress-selector-config-file"] !== undefined) files.egressSelectorConfigFile = v["egress-selector-config-file"];
  if (v["tracing-config-file"] !== undefined) files.tracingConfigFile = v["tracing-config-file"];
  return Object.keys(files).length === 0 ? {} : { inertConfigFiles: files };
}

/** kube-apiserver's service network flags, checked here so a bad value stops the start with kube's text. */
function serviceNetworkFlags(v: Values): Pick<ServeOptions, "serviceNetwork"> {
  const flags: NonNullable<ServeOptions["serviceNetwork"]> = {};
  const ranges = v["service-cluster-ip-range"];
  if (ranges !== undefined) {
    parseServiceClusterIPRange(ranges);
    flags.serviceClusterIPRange = ranges;
  }
  const nodePorts = v["service-node-port-range"];
  if (nodePorts !== undefined) {
    parsePortRange(nodePorts);
    flags.serviceNodePortRange = nodePorts;
  }
  const advertise = v["advertise-address"];
  if (advertise !== undefined) flags.advertiseAddress = parseAdvertiseAddress(advertise);
  return Object.keys(flags).length === 0 ? {} : { serviceNetwork: flags };
}
