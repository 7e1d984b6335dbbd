// ImagePolicyWebhook's configuration: `{imagePolicy: {kubeConfigFile, allowTTL, denyTTL, retryBackoff,
// defaultAllow}}` in YAML or JSON, decoded as Go's encoding/json decodes it (field names matched without
// regard to case, unknown fields ignored) and normalized as kube does: 0 takes the default, -1 turns the
// duration off, anything else must lie within kube's bounds. TTLs are seconds, the backoff milliseconds.
import { parse } from "yaml";
import { formatGoDuration } from "../../authz/authorization-config.js";
import { goJsonValueKind } from "../../errors/go-json-kind.js";
import { isJsonObject, type JsonObject } from "../../object/json-object.js";

export interface ImagePolicyConfig {
  kubeConfigFile: string;
  allowTtlMs: number;
  denyTtlMs: number;
  retryBackoffMs: number;
  defaultAllow: boolean;
}

const nanosPerMs = 1_000_000n;
const nanosPerSecond = 1_000_000_000n;
const minute = 60n * nanosPerSecond;

interface DurationRule {
  /** The name kube's messages give the setting. */
  name: string;
  /** What one unit of the configured number is, in nanoseconds. */
  scale: bigint;
  min: bigint;
  max: bigint;
  fallback: bigint;
}

const rules = {
  retryBackoff: { name: "backoff", scale: nanosPerMs, min: 1n, max: 5n * minute, fallback: 500n * nanosPerMs },
  allowTTL: {
    name: "allow cache",
    scale: nanosPerSecond,
    min: nanosPerSecond,
    max: 30n * minute,
    fallback: 5n * minute,
  },
  denyTTL: {
    name: "deny cache",
    scale: nanosPerSecond,
    min: nanosPerSecond,
    max: 30n * minute,
    fallback: 30n * nanosPerSecond,
  },
} satisfies Record<string, DurationRule>;

/** A decoding failure worded as encoding/json's, before the YAML decoder's wrapping. */
class UnmarshalError extends Error {}

function typeError(value: unknown, field: string, goType: string): UnmarshalError {
  return new UnmarshalError(
    `json: cannot unmarshal ${goJsonValueKind(value)} into Go struct field imagePolicyWebhookConfig.imagePolicy.${field} of type ${goType}`,
  );
}

/** encoding/json's field matching: any case; of several matching keys the last one in the document wins. */
function member(object: JsonObject, name: string): unknown {
  let found: unknown;
  for (const [key, value] of Object.entries(object)) if (key.toLowerCase() === name.toLowerCase()) found = value;
  return found;
}

function durationField(object: JsonObject, field: keyof typeof rules): bigint {
  const value = member(object, field);
  if (value === undefined || value === null) return 0n;
  if (typeof value !== "number" || !Number.isSafeInteger(value)) throw typeError(value, field, "time.Duration");
  return BigInt(value);
}

function normalize(value: bigint, rule: DurationRule): bigint {
  if (value === -1n) return 0n;
  if (value === 0n) return rule.fallback;
  const scaled = value * rule.scale;
  if (scaled < rule.min || scaled > rule.max) {
    throw new Error(
      `valid value is between ${formatGoDuration(rule.min)} and ${formatGoDuration(rule.max)}, got ${formatGoDuration(scaled)}`,
    );
  }
  return scaled;
}

function toMs(nanos: bigint): number {
  return Number(nanos) / 1e6;
}

function decode(text: string): {
  kubeConfigFile: string;
  allowTTL: bigint;
  denyTTL: bigint;
  retryBackoff: bigint;
  defaultAllow: boolean;
} {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new Error(`error converting YAML to JSON: ${(error as Error).message}`);
  }
  if (document === null || document === undefined) document = {};
  if (!isJsonObject(document)) {
    throw new UnmarshalError(
      `json: cannot unmarshal ${goJsonValueKind(document)} into Go value of type imagepolicy.AdmissionConfig`,
    );
  }
  const policy = member(document, "imagePolicy") ?? {};
  if (!isJsonObject(policy)) {
    throw new UnmarshalError(
      `json: cannot unmarshal ${goJsonValueKind(policy)} into Go struct field AdmissionConfig.imagePolicy of type imagepolicy.imagePolicyWebhookConfig`,
    );
  }
  const kubeConfigFile = member(policy, "kubeConfigFile") ?? "";
  if (typeof kubeConfigFile !== "string") throw typeError(kubeConfigFile, "kubeConfigFile", "string");
  const defaultAllow = member(policy, "defaultAllow") ?? false;
  if (typeof defaultAllow !== "boolean") throw typeError(defaultAllow, "defaultAllow", "bool");
  return {
    kubeConfigFile,
    allowTTL: durationField(policy, "allowTTL"),
    denyTTL: durationField(policy, "denyTTL"),
    retryBackoff: durationField(policy, "retryBackoff"),
    defaultAllow,
  };
}

/** The plugin's settings from its configuration text; throws with kube's startup text. */
export function loadImagePolicyConfig(text: string | undefined): ImagePolicyConfig {
  if (text === undefined) throw new Error("no config specified");
  let raw: ReturnType<typeof decode>;
  try {
    raw = decode(text);
  } catch (error) {
    // kube reads JSON with encoding/json directly and YAML through sigs.k8s.io/yaml, which wraps its errors.
    if (!(error instanceof UnmarshalError)) throw error;
    const yaml = !text.trimStart().startsWith("{");
    throw new Error(yaml ? `error unmarshaling JSON: while decoding JSON: ${error.message}` : error.message);
  }
  const retryBackoff = normalize(raw.retryBackoff, rules.retryBackoff);
  const allowTtl = normalize(raw.allowTTL, rules.allowTTL);
  const denyTtl = normalize(raw.denyTTL, rules.denyTTL);
  return {
    kubeConfigFile: raw.kubeConfigFile,
    allowTtlMs: toMs(allowTtl),
    denyTtlMs: toMs(denyTtl),
    retryBackoffMs: toMs(retryBackoff),
    defaultAllow: raw.defaultAllow,
  };
}
