// AuthorizationConfiguration (apiserver.config.k8s.io v1, v1beta1, v1alpha1) as kapi's authorizers use it,
// read from a decoded object, and kube's ValidateAuthorizationConfiguration over it. Both the
// `--authorization-config` reader (authorization-config.ts) and the kind's strategy (`kapi config validate`)
// use it. Durations are held in milliseconds.
import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { duplicate, type FieldError, invalid, notSupported, required } from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";
import { formatGoDuration, parseGoDuration } from "../object/go-duration.js";
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

export const maxTimeoutMs = 30_000;
export const defaultAuthorizedTtl = "5m";
export const defaultUnauthorizedTtl = "30s";

const nanosPerMs = 1_000_000n;

export function toMs(nanos: bigint): number {
  return Number(nanos / nanosPerMs) + Number(nanos % nanosPerMs) / 1e6;
}

function toNanos(ms: number): bigint {
  return BigInt(Math.round(ms * 1e6));
}

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

/** The decoded object as the model: absent durations take kube's defaults, absent strings are "". */
export function authorizationConfigurationFrom(raw: Raw): AuthorizationConfiguration {
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
