// The authorizer chain's configuration, as kube-apiserver reads it: an AuthorizationConfiguration file
// (apiserver.config.k8s.io v1, v1beta1 or v1alpha1; YAML or JSON; strict) given by
// `--authorization-config`, defaulted and validated with kube's rules and error texts, or the legacy
// flags (`--authorization-mode` and `--authorization-webhook-*`) turned into the same model. Both forms
// together are refused with kube's words. Durations are held in milliseconds.

import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { parseDocument } from "yaml";
import { CelDuration } from "../cel/common/values.js";
import { parseDuration } from "../cel/library/standard/durations.js";
import { aggregateMessage } from "../errors/aggregate.js";
import { duplicate, type FieldError, invalid, notSupported, required } from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";
import { formatFieldErrors } from "../errors/format-field-error.js";
import { dnsSubdomainErrors } from "../validation/name-formats.js";
import { compileMatchConditions } from "./webhook/match-conditions.js";

export const authorizationModes = ["AlwaysAllow", "AlwaysDeny", "ABAC", "Webhook", "RBAC", "Node"] as const;
export type AuthorizerType = (typeof authorizationModes)[number];

export interface WebhookConfiguration {
  authorizedTtlMs: number;
  cacheAuthorizedRequests: boolean;
  unauthorizedTtlMs: number;
  cacheUnauthorizedRequests: boolean;
  timeoutMs: number;
  subjectAccessReviewVersion: "v1" | "v1beta1";
  matchConditionSubjectAccessReviewVersion: string;
  failurePolicy: "NoOpinion" | "Deny";
  connectionInfo: { type: "KubeConfigFile" | "InClusterConfig"; kubeConfigFile?: string };
  matchConditions: { expression: string }[];
}

export interface AuthorizerConfiguration {
  type: AuthorizerType;
  name: string;
  webhook?: WebhookConfiguration;
}

export interface AuthorizationConfiguration {
  authorizers: AuthorizerConfiguration[];
}

/** kube-apiserver's authorization flags, named after them. */
export interface AuthorizationOptions {
  /** `--authorization-mode`: a comma list or its items; AlwaysAllow when neither this nor a config file is given. */
  authorizationMode?: string | readonly string[];
  /** `--authorization-policy-file`: the ABAC policy file. */
  authorizationPolicyFile?: string;
  /** `--authorization-webhook-config-file`: the webhook's kubeconfig. */
  authorizationWebhookConfigFile?: string;
  /** `--authorization-webhook-version`: v1beta1 (default) or v1. */
  authorizationWebhookVersion?: string;
  /** `--authorization-webhook-cache-authorized-ttl`: a Go duration, default 5m0s. */
  authorizationWebhookCacheAuthorizedTtl?: string;
  /** `--authorization-webhook-cache-unauthorized-ttl`: a Go duration, default 30s. */
  authorizationWebhookCacheUnauthorizedTtl?: string;
  /** `--authorization-config`: an AuthorizationConfiguration file, reloaded when it changes. */
  authorizationConfig?: string;
}

export interface ResolvedAuthorization {
  configuration: AuthorizationConfiguration;
  /** The ABAC policy file, when one was given. */
  policyFile?: string;
  /** The `--authorization-config` file and the text it was read from, for reloading. */
  configFile?: { path: string; data: string };
}

const group = "apiserver.config.k8s.io";
const versions = ["v1", "v1beta1", "v1alpha1"];
const kind = "AuthorizationConfiguration";
const maxTimeoutMs = 30_000;
const defaultAuthorizedTtl = "5m";
const defaultUnauthorizedTtl = "30s";

// ---- Go durations ----

/** Go's time.ParseDuration, in nanoseconds; its error text otherwise. */
export function parseGoDuration(text: string): bigint {
  const parsed = parseDuration(text);
  if (!(parsed instanceof CelDuration)) throw new Error(`time: invalid duration ${JSON.stringify(text)}`);
  return parsed.nanos;
}

function trimFraction(digits: string): string {
  return digits.replace(/\.?0+$/, "");
}

/** Go's Duration.String(): `5m0s`, `30s`, `1h0m0s`, `1.5ms`, `0s`. */
export function formatGoDuration(nanos: bigint): string {
  if (nanos === 0n) return "0s";
  const sign = nanos < 0n ? "-" : "";
  const n = nanos < 0n ? -nanos : nanos;
  if (n < 1_000_000_000n) {
    const [unit, size] = n < 1_000n ? ["ns", 1n] : n < 1_000_000n ? ["µs", 1_000n] : ["ms", 1_000_000n];
    const whole = n / size;
    const frac = (n % size).toString().padStart(size.toString().length - 1, "0");
    return `${sign}${trimFraction(`${whole}.${frac}`)}${unit}`;
  }
  const hours = n / 3_600_000_000_000n;
  const minutes = (n / 60_000_000_000n) % 60n;
  const seconds = n % 60_000_000_000n;
  const s = trimFraction(`${seconds / 1_000_000_000n}.${(seconds % 1_000_000_000n).toString().padStart(9, "0")}`);
  if (hours > 0n) return `${sign}${hours}h${minutes}m${s}s`;
  if (minutes > 0n) return `${sign}${minutes}m${s}s`;
  return `${sign}${s}s`;
}

const nanosPerMs = 1_000_000n;

function toMs(nanos: bigint): number {
  return Number(nanos / nanosPerMs) + Number(nanos % nanosPerMs) / 1e6;
}

function toNanos(ms: number): bigint {
  return BigInt(Math.round(ms * 1e6));
}

// ---- strict decoding ----

type Shape = "string" | "bool" | "duration" | { fields: Record<string, Shape>; go: string } | { items: Shape };

const webhookShape: Shape = {
  go: "WebhookConfiguration",
  fields: {
    authorizedTTL: "duration",
    cacheAuthorizedRequests: "bool",
    unauthorizedTTL: "duration",
    cacheUnauthorizedRequests: "bool",
    timeout: "duration",
    subjectAccessReviewVersion: "string",
    matchConditionSubjectAccessReviewVersion: "string",
    failurePolicy: "string",
    connectionInfo: { go: "WebhookConnectionInfo", fields: { type: "string", kubeConfigFile: "string" } },
    matchConditions: { items: { go: "WebhookMatchCondition", fields: { expression: "string" } } },
  },
};

const fileShape: Shape = {
  go: "AuthorizationConfiguration",
  fields: {
    apiVersion: "string",
    kind: "string",
    authorizers: {
      items: { go: "AuthorizerConfiguration", fields: { type: "string", name: "string", webhook: webhookShape } },
    },
  },
};

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (typeof value === "boolean") return "bool";
  return typeof value === "object" ? "object" : typeof value;
}

const goTypes: Record<string, string> = { string: "string", bool: "bool", duration: "string" };

/** Checks types (Go json's first error stops it) and collects unknown fields, as strict decoding does. */
function decodeStrict(value: unknown, shape: Shape, path: string, goField: string, unknown: string[]): void {
  if (value === null || value === undefined) return;
  const wrong = (want: string) =>
    new Error(`json: cannot unmarshal ${jsonType(value)} into Go struct field ${goField} of type ${want}`);
  if (typeof shape === "string") {
    if (shape === "bool" ? typeof value !== "boolean" : typeof value !== "string") throw wrong(goTypes[shape] ?? shape);
    if (shape === "duration") parseGoDuration(value as string);
    return;
  }
  if ("items" in shape) {
    if (!Array.isArray(value)) throw wrong("[]");
    for (const [i, item] of value.entries()) decodeStrict(item, shape.items, index(path, i), goField, unknown);
    return;
  }
  if (typeof value !== "object" || Array.isArray(value)) throw wrong(shape.go);
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const fieldShape = shape.fields[key];
    if (fieldShape === undefined) unknown.push(`unknown field ${JSON.stringify(child(path, key))}`);
    else
      decodeStrict(
        item,
        fieldShape,
        child(path, key),
        `${shape.go}.${child(path, key).replace(/\[\d+\]/g, "")}`,
        unknown,
      );
  }
}

function parseFile(data: string): Record<string, unknown> {
  const doc = parseDocument(data, { version: "1.1" });
  const first = doc.errors[0];
  if (first !== undefined) {
    const line = first.linePos?.[0].line ?? 0;
    if (first.code === "DUPLICATE_KEY") {
      const key = (data.split("\n")[line - 1] ?? "").trim().replace(/^-\s*/, "").split(":")[0] ?? "";
      throw new Error(`yaml: unmarshal errors:\n  line ${line}: key ${JSON.stringify(key)} already set in map`);
    }
    throw new Error(`yaml: line ${line}: ${first.message.split(" at line")[0]}`);
  }
  const value: unknown = doc.toJS();
  if (value === null || value === undefined) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`json: cannot unmarshal ${jsonType(value)} into Go value of type struct`);
  }
  return value as Record<string, unknown>;
}

// ---- the file form ----

type Raw = Record<string, unknown>;

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** A metav1.Duration field; absent or zero takes the default. */
function durationMs(value: unknown, fallback: string): number {
  const text = str(value);
  const nanos = parseGoDuration(text === "" ? "0s" : text);
  return toMs(nanos === 0n ? parseGoDuration(fallback) : nanos);
}

function webhookFrom(raw: Raw): WebhookConfiguration {
  const connection = (raw.connectionInfo ?? {}) as Raw;
  return {
    authorizedTtlMs: durationMs(raw.authorizedTTL, defaultAuthorizedTtl),
    cacheAuthorizedRequests: raw.cacheAuthorizedRequests !== false,
    unauthorizedTtlMs: durationMs(raw.unauthorizedTTL, defaultUnauthorizedTtl),
    cacheUnauthorizedRequests: raw.cacheUnauthorizedRequests !== false,
    timeoutMs: durationMs(raw.timeout, "0s"),
    subjectAccessReviewVersion: str(
      raw.subjectAccessReviewVersion,
    ) as WebhookConfiguration["subjectAccessReviewVersion"],
    matchConditionSubjectAccessReviewVersion: str(raw.matchConditionSubjectAccessReviewVersion),
    failurePolicy: str(raw.failurePolicy) as WebhookConfiguration["failurePolicy"],
    connectionInfo: {
      type: str(connection.type) as WebhookConfiguration["connectionInfo"]["type"],
      ...(typeof connection.kubeConfigFile === "string" ? { kubeConfigFile: connection.kubeConfigFile } : {}),
    },
    matchConditions: ((raw.matchConditions ?? []) as Raw[]).map((c) => ({ expression: str(c?.expression) })),
  };
}

/** load.LoadFromData: the type must be known, the fields too; defaults applied. */
function decodeConfiguration(data: string): AuthorizationConfiguration {
  const raw = parseFile(data);
  if (Object.keys(raw).length === 0) return { authorizers: [] };
  const apiVersion = str(raw.apiVersion);
  if (apiVersion === "") throw new Error(`Object 'apiVersion' is missing in '${JSON.stringify(raw)}'`);
  if (str(raw.kind) === "") throw new Error(`Object 'Kind' is missing in '${JSON.stringify(raw)}'`);
  if (!versions.some((v) => `${group}/${v}` === apiVersion) || raw.kind !== kind) {
    throw new Error(`no kind ${JSON.stringify(str(raw.kind))} is registered for version ${JSON.stringify(apiVersion)}`);
  }
  const unknown: string[] = [];
  decodeStrict(raw, fileShape, "", "AuthorizationConfiguration", unknown);
  if (unknown.length > 0) throw new Error(`strict decoding error: ${unknown.join(", ")}`);
  const authorizers = ((raw.authorizers ?? []) as Raw[]).map((a) => ({
    type: str(a?.type) as AuthorizerType,
    name: str(a?.name),
    ...(a?.webhook === undefined || a.webhook === null ? {} : { webhook: webhookFrom(a.webhook as Raw) }),
  }));
  return { authorizers };
}

function statError(path: string): string | undefined {
  try {
    return statSync(path).isFile() ? undefined : "must be a regular file";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT" ? "no such file or directory" : code === "EACCES" ? "permission denied" : String(code);
    return `error loading file: stat ${path}: ${why}`;
  }
}

/** kube's ValidateWebhookConfiguration; its paths sit directly under the authorizer's. */
function validateWebhook(w: WebhookConfiguration, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (w.timeoutMs === 0) errors.push(required(child(path, "timeout")));
  else if (w.timeoutMs > maxTimeoutMs || w.timeoutMs < 0) {
    errors.push(invalid(child(path, "timeout"), formatGoDuration(toNanos(w.timeoutMs)), "must be > 0s and <= 30s"));
  }
  for (const [field, ms] of [
    ["authorizedTTL", w.authorizedTtlMs],
    ["unauthorizedTTL", w.unauthorizedTtlMs],
  ] as const) {
    if (ms < 0) errors.push(invalid(child(path, field), formatGoDuration(toNanos(ms)), "must be > 0s"));
  }
  const sarVersion = child(path, "subjectAccessReviewVersion");
  if (w.subjectAccessReviewVersion === ("" as string)) errors.push(required(sarVersion));
  else if (w.subjectAccessReviewVersion !== "v1" && w.subjectAccessReviewVersion !== "v1beta1") {
    errors.push(notSupported(sarVersion, w.subjectAccessReviewVersion, ["v1", "v1beta1"]));
  }
  const matchVersion = child(path, "matchConditionSubjectAccessReviewVersion");
  if (w.matchConditionSubjectAccessReviewVersion === "") {
    if (w.matchConditions.length > 0) errors.push(required(matchVersion, "required if match conditions are specified"));
  } else if (w.matchConditionSubjectAccessReviewVersion !== "v1") {
    errors.push(notSupported(matchVersion, w.matchConditionSubjectAccessReviewVersion, ["v1"]));
  }
  const policy = child(path, "failurePolicy");
  if (w.failurePolicy === ("" as string)) errors.push(required(policy));
  else if (w.failurePolicy !== "NoOpinion" && w.failurePolicy !== "Deny") {
    errors.push(notSupported(policy, w.failurePolicy, ["NoOpinion", "Deny"]));
  }
  const connection = child(path, "connectionInfo");
  const file = w.connectionInfo.kubeConfigFile;
  switch (w.connectionInfo.type as string) {
    case "":
      errors.push(required(child(connection, "type")));
      break;
    case "InClusterConfig":
      if (file !== undefined) {
        errors.push(invalid(child(connection, "kubeConfigFile"), file, "can only be set when type=KubeConfigFile"));
      }
      break;
    case "KubeConfigFile": {
      const filePath = child(connection, "kubeConfigFile");
      if (file === undefined || file === "") errors.push(required(filePath));
      else if (!isAbsolute(file)) errors.push(invalid(filePath, file, "must be an absolute path"));
      else {
        const problem = statError(file);
        if (problem !== undefined) errors.push(invalid(filePath, file, problem));
      }
      break;
    }
    default:
      errors.push(
        notSupported(child(connection, "type"), w.connectionInfo.type, ["InClusterConfig", "KubeConfigFile"]),
      );
  }
  errors.push(...compileMatchConditions(w.matchConditions, path).errors);
  return errors;
}

/** kube's ValidateAuthorizationConfiguration with kube-apiserver's types (Webhook the only repeatable one). */
export function validateAuthorizationConfiguration(c: AuthorizationConfiguration): FieldError[] {
  const errors: FieldError[] = [];
  if (c.authorizers.length === 0) {
    errors.push(required("authorizers", "at least one authorization mode must be defined"));
  }
  const seenTypes = new Set<string>();
  const seenNames = new Set<string>();
  for (const [i, a] of c.authorizers.entries()) {
    const path = index("authorizers", i);
    if (a.type === ("" as string)) {
      errors.push(required(child(path, "type")));
      continue;
    }
    if (!(authorizationModes as readonly string[]).includes(a.type)) {
      errors.push(notSupported(child(path, "type"), a.type, [...authorizationModes].sort()));
      continue;
    }
    if (seenTypes.has(a.type) && a.type !== "Webhook") {
      errors.push(duplicate(child(path, "type"), a.type));
      continue;
    }
    seenTypes.add(a.type);
    const namePath = child(path, "name");
    if (a.name === "") errors.push(required(namePath));
    else if (seenNames.has(a.name)) errors.push(duplicate(namePath, a.name));
    else {
      const problems = dnsSubdomainErrors(a.name);
      if (problems.length > 0)
        errors.push(invalid(namePath, a.name, `authorizer name is invalid: ${problems.join(", ")}`));
    }
    seenNames.add(a.name);
    if (a.type === "Webhook") {
      if (a.webhook === undefined) errors.push(required(child(path, "webhook"), "required when type=Webhook"));
      else errors.push(...validateWebhook(a.webhook, path));
    } else if (a.webhook !== undefined) {
      errors.push(invalid(child(path, "webhook"), "non-null", "may only be specified when type=Webhook"));
    }
  }
  return errors;
}

/**
 * kube-apiserver's LoadAndValidateData: decode, validate, then its own checks (non-webhook authorizers
 * named after their type in lower case; on a reload, every non-webhook type of the first load kept).
 */
export function parseAuthorizationConfiguration(
  data: string,
  requiredTypes: ReadonlySet<AuthorizerType> = new Set(),
): AuthorizationConfiguration {
  let configuration: AuthorizationConfiguration;
  try {
    configuration = decodeConfiguration(data);
  } catch (error) {
    throw new Error(`failed to load AuthorizationConfiguration from file: ${(error as Error).message}`);
  }
  const fieldErrors = validateAuthorizationConfiguration(configuration);
  if (fieldErrors.length > 0) throw new Error(formatFieldErrors(fieldErrors));
  const problems: string[] = [];
  const seen = new Set<AuthorizerType>();
  for (const a of configuration.authorizers) {
    if (a.type === "Webhook") continue;
    seen.add(a.type);
    const expected = a.type.toLowerCase();
    if (a.name !== expected) problems.push(`expected name ${expected} for authorizer ${a.type} instead of ${a.name}`);
  }
  const missing = [...requiredTypes].filter((t) => !seen.has(t)).sort();
  if (missing.length > 0) problems.push(`missing required types: [${missing.join(" ")}]`);
  if (problems.length > 0) throw new Error(aggregateMessage(problems));
  return configuration;
}

// ---- the legacy flags ----

function modesOf(mode: AuthorizationOptions["authorizationMode"]): string[] {
  if (mode === undefined) return [];
  const items = typeof mode === "string" ? [mode] : [...mode];
  return items.flatMap((m) => m.split(",")).filter((m) => m !== "");
}

function flagDuration(flag: string, value: string | undefined, fallback: string): number {
  try {
    return toMs(parseGoDuration(value ?? fallback));
  } catch (error) {
    throw new Error(`invalid argument ${JSON.stringify(value)} for "--${flag}" flag: ${(error as Error).message}`);
  }
}

function legacyConfiguration(options: AuthorizationOptions, modes: readonly string[]): AuthorizationConfiguration {
  const errors: string[] = [];
  for (const mode of modes) {
    if (!(authorizationModes as readonly string[]).includes(mode)) {
      errors.push(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
    }
    if (mode === "ABAC" && !options.authorizationPolicyFile) {
      errors.push("authorization-mode ABAC's authorization policy file not passed");
    }
    if (mode === "Webhook" && !options.authorizationWebhookConfigFile) {
      errors.push("authorization-mode Webhook's authorization config file not passed");
    }
  }
  if (options.authorizationPolicyFile && !modes.includes("ABAC")) {
    errors.push("cannot specify --authorization-policy-file without mode ABAC");
  }
  if (options.authorizationWebhookConfigFile && !modes.includes("Webhook")) {
    errors.push("cannot specify --authorization-webhook-config-file without mode Webhook");
  }
  if (new Set(modes).size !== modes.length) {
    errors.push(`authorization-mode [${modes.join(" ")}] has mode specified more than once`);
  }
  if (errors.length > 0) throw new Error(aggregateMessage(errors));
  const authorizedTtlMs = flagDuration(
    "authorization-webhook-cache-authorized-ttl",
    options.authorizationWebhookCacheAuthorizedTtl,
    defaultAuthorizedTtl,
  );
  const unauthorizedTtlMs = flagDuration(
    "authorization-webhook-cache-unauthorized-ttl",
    options.authorizationWebhookCacheUnauthorizedTtl,
    defaultUnauthorizedTtl,
  );
  return {
    authorizers: modes.map((mode): AuthorizerConfiguration => {
      if (mode !== "Webhook") return { type: mode as AuthorizerType, name: mode.toLowerCase() };
      return {
        type: "Webhook",
        name: "default",
        webhook: {
          authorizedTtlMs,
          cacheAuthorizedRequests: authorizedTtlMs !== 0,
          unauthorizedTtlMs,
          cacheUnauthorizedRequests: unauthorizedTtlMs !== 0,
          // Timeout and failure policy are required in the file; the flags keep kube's old behaviour.
          timeoutMs: maxTimeoutMs,
          failurePolicy: "NoOpinion",
          subjectAccessReviewVersion: (options.authorizationWebhookVersion ??
            "v1beta1") as WebhookConfiguration["subjectAccessReviewVersion"],
          matchConditionSubjectAccessReviewVersion: "",
          connectionInfo: { type: "KubeConfigFile", kubeConfigFile: options.authorizationWebhookConfigFile as string },
          matchConditions: [],
        },
      };
    }),
  };
}

function legacyFlagsSet(options: AuthorizationOptions): boolean {
  return (
    options.authorizationMode !== undefined ||
    options.authorizationWebhookConfigFile !== undefined ||
    options.authorizationWebhookVersion !== undefined ||
    options.authorizationWebhookCacheAuthorizedTtl !== undefined ||
    options.authorizationWebhookCacheUnauthorizedTtl !== undefined
  );
}

/**
 * The configuration the options describe (kube's Complete, Validate and ToAuthorizationConfig): the file's
 * when `--authorization-config` is given (never with the mode or webhook flags), else the flags'.
 * `readFile` reads the configuration file (a seam for tests).
 */
export function resolveAuthorization(
  options: AuthorizationOptions,
  readFile: (path: string) => string,
): ResolvedAuthorization {
  const policyFile = options.authorizationPolicyFile ? { policyFile: options.authorizationPolicyFile } : {};
  const path = options.authorizationConfig;
  if (path !== undefined && path !== "") {
    if (legacyFlagsSet(options)) {
      throw new Error(
        "--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined",
      );
    }
    const data = readFile(path);
    return { configuration: parseAuthorizationConfiguration(data), configFile: { path, data }, ...policyFile };
  }
  const modes = modesOf(options.authorizationMode);
  const configuration = legacyConfiguration(options, modes.length === 0 ? ["AlwaysAllow"] : modes);
  return { configuration, ...policyFile };
}
