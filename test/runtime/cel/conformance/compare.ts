// How the harness compares a result with the suite's expectation and prints values in reports.
import { formatType, typeName } from "../../../../runtime/cel/common/cel-types.js";
import {
  CelDuration,
  CelError,
  CelList,
  CelMap,
  CelOptional,
  CelTimestamp,
  CelTypeValue,
  CelUint,
  type CelValue,
} from "../../../../runtime/cel/common/values.js";

/** Exact equality: the same CEL type and value; maps ignore entry order; NaN matches NaN. */
export function sameValue(a: CelValue, b: CelValue): boolean {
  if (typeof a === "number" && typeof b === "number") return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a === b;
  if (a instanceof Uint8Array) return b instanceof Uint8Array && Buffer.from(a).equals(Buffer.from(b));
  if (a instanceof CelUint) return b instanceof CelUint && a.value === b.value;
  if (a instanceof CelTimestamp) return b instanceof CelTimestamp && a.seconds === b.seconds && a.nanos === b.nanos;
  if (a instanceof CelDuration) return b instanceof CelDuration && a.nanos === b.nanos;
  if (a instanceof CelTypeValue) return b instanceof CelTypeValue && typeName(a.type) === typeName(b.type);
  if (a instanceof CelOptional) {
    if (!(b instanceof CelOptional)) return false;
    return a.value === undefined || b.value === undefined ? a.value === b.value : sameValue(a.value, b.value);
  }
  if (a instanceof CelList) {
    if (!(b instanceof CelList) || a.size !== b.size) return false;
    for (let i = 0; i < a.size; i++) if (!sameValue(a.get(i), b.get(i))) return false;
    return true;
  }
  if (a instanceof CelMap) {
    if (!(b instanceof CelMap) || a.size !== b.size) return false;
    const unmatched = [...b.entries()];
    for (const [k, v] of a.entries()) {
      const at = unmatched.findIndex(([k2, v2]) => sameValue(k, k2) && sameValue(v, v2));
      if (at < 0) return false;
      unmatched.splice(at, 1);
    }
    return true;
  }
  return false;
}

/** A CEL-like rendering for failure reports: `1`, `1u`, `1.5`, `"s"`, `b"…"`, `[…]`, `{k: v}`. */
export function formatValue(v: CelValue): string {
  switch (typeof v) {
    case "bigint":
      return String(v);
    case "number":
      return Number.isInteger(v) ? `${v}.0` : String(v);
    case "string":
      return JSON.stringify(v);
    case "boolean":
      return String(v);
    default:
      break;
  }
  if (v === null) return "null";
  if (v instanceof Uint8Array) return `b${JSON.stringify(Buffer.from(v).toString("latin1"))}`;
  if (v instanceof CelUint) return `${v.value}u`;
  if (v instanceof CelError) return `error(${JSON.stringify(v.message)})`;
  if (v instanceof CelTimestamp) return `timestamp(${v.seconds}s+${v.nanos}ns)`;
  if (v instanceof CelDuration) return `duration(${v.nanos}ns)`;
  if (v instanceof CelTypeValue) return `type(${formatType(v.type)})`;
  if (v instanceof CelOptional) return v.hasValue() ? `optional.of(${formatValue(v.value)})` : "optional.none()";
  if (v instanceof CelList) return `[${[...v].map(formatValue).join(", ")}]`;
  if (v instanceof CelMap)
    return `{${[...v.entries()].map(([k, x]) => `${formatValue(k)}: ${formatValue(x)}`).join(", ")}}`;
  return `<${v.constructor.name}>`;
}
