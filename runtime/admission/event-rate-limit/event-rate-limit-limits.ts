// EventRateLimit's limits (eventratelimit.admission.k8s.io/v1alpha1 Configuration `limits`) as the plugin
// uses them, read from a decoded document with encoding/json's type errors, and kube's ValidateConfiguration
// over them. The plugin's loader and the kind's strategy (`kapi config validate`) share it.
import type { FieldError } from "../../errors/field-error.js";
import { invalid, notSupported } from "../../errors/field-error.js";
import { goJsonValueKind } from "../../errors/go-json-kind.js";
import { isJsonObject } from "../../object/json-object.js";

export type LimitType = "Server" | "Namespace" | "User" | "SourceAndObject";

const limitTypes: readonly LimitType[] = ["Server", "Namespace", "User", "SourceAndObject"];

export interface Limit {
  type: LimitType;
  qps: number;
  burst: number;
  /** 0 means the default (4096); unused by the Server limit, which has one bucket. */
  cacheSize: number;
}

export function unmarshalError(value: unknown, field: string, goType: string): Error {
  return new Error(`json: cannot unmarshal ${goJsonValueKind(value)} into Go struct field ${field} of type ${goType}`);
}

const int32Range = 2 ** 31;

function int32Field(limit: Record<string, unknown>, key: string): number {
  const value = limit[key];
  if (value === undefined || value === null) return 0;
  if (typeof value !== "number" || !Number.isInteger(value) || value < -int32Range || value >= int32Range) {
    throw unmarshalError(value, `Limit.limits.${key}`, "int32");
  }
  return value;
}

export function decodeLimit(value: unknown): Limit {
  if (value === null) return { type: "" as LimitType, qps: 0, burst: 0, cacheSize: 0 };
  if (!isJsonObject(value)) throw unmarshalError(value, "Configuration.limits", "v1alpha1.Limit");
  const type = value.type ?? "";
  if (typeof type !== "string") throw unmarshalError(type, "Limit.limits.type", "v1alpha1.LimitType");
  return {
    type: type as LimitType,
    qps: int32Field(value, "qps"),
    burst: int32Field(value, "burst"),
    cacheSize: int32Field(value, "cacheSize"),
  };
}

/** kube's ValidateConfiguration over the decoded limits; `limitsValue` is the document's `limits` as written. */
export function validateLimits(limitsValue: unknown, limits: readonly Limit[]): FieldError[] {
  const errors: FieldError[] = [];
  if (limits.length === 0) errors.push(invalid("limits", limitsValue, "must not be empty"));
  limits.forEach((limit, i) => {
    const path = `limits[${i}]`;
    if (!limitTypes.includes(limit.type)) errors.push(notSupported(`${path}.type`, limit.type, limitTypes));
    if (limit.burst <= 0) errors.push(invalid(`${path}.burst`, limit.burst, "must be positive"));
    if (limit.qps <= 0) errors.push(invalid(`${path}.qps`, limit.qps, "must be positive"));
    if (limit.type !== "Server" && limit.cacheSize < 0) {
      errors.push(invalid(`${path}.cacheSize`, limit.cacheSize, "must not be negative"));
    }
  });
  return errors;
}
