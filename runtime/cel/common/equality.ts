// CEL's heterogeneous equality: numbers compare by value across int, uint and double (NaN equals
// nothing), values of different types are unequal rather than an error, and lists decoded with a
// Kubernetes `set` or `map` list type compare ignoring order.
import { sameType } from "./cel-types.js";
import {
  CelDuration,
  CelList,
  CelMap,
  CelObject,
  CelOpaque,
  CelOptional,
  CelTimestamp,
  CelTypeValue,
  CelUint,
  type CelValue,
} from "./values.js";

export function celEquals(a: CelValue, b: CelValue): boolean {
  if (a === b) return typeof a !== "number" || !Number.isNaN(a);
  const numeric = compareNumbers(a, b);
  if (numeric !== undefined) return numeric === 0;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (a instanceof Uint8Array) return b instanceof Uint8Array && bytesEqual(a, b);
  if (a instanceof CelList) return b instanceof CelList && listsEqual(a, b);
  if (a instanceof CelMap) return b instanceof CelMap && mapsEqual(a, b);
  if (a instanceof CelTimestamp) return b instanceof CelTimestamp && a.seconds === b.seconds && a.nanos === b.nanos;
  if (a instanceof CelDuration) return b instanceof CelDuration && a.nanos === b.nanos;
  if (a instanceof CelTypeValue) return b instanceof CelTypeValue && sameType(a.type, b.type);
  if (a instanceof CelOptional) {
    if (!(b instanceof CelOptional)) return false;
    if (a.value === undefined || b.value === undefined) return a.value === b.value;
    return celEquals(a.value, b.value);
  }
  if (a instanceof CelObject) return b instanceof CelObject && objectsEqual(a, b);
  if (a instanceof CelOpaque) return a.equals(b);
  return false;
}

/**
 * Orders two numbers of any numeric types as cel-go does: ints and uints compare exactly with each other;
 * against a double inside the integer type's range the integer is rounded to a double (so
 * 9223372036854775807 equals 9223372036854775808.0). -1, 0 or 1; NaN when either is NaN; undefined when
 * either is not a number.
 */
export function compareNumbers(a: CelValue, b: CelValue): number | undefined {
  if (typeof a === "number") {
    if (typeof b === "number") return compareDoubles(a, b);
    const i = integerOf(b);
    return i === undefined ? undefined : compareDoubleToInteger(a, i, b instanceof CelUint);
  }
  const x = integerOf(a);
  if (x === undefined) return undefined;
  if (typeof b === "number") return -compareDoubleToInteger(b, x, a instanceof CelUint);
  const y = integerOf(b);
  if (y === undefined) return undefined;
  return x < y ? -1 : x > y ? 1 : 0;
}

function integerOf(v: CelValue): bigint | undefined {
  if (typeof v === "bigint") return v;
  return v instanceof CelUint ? v.value : undefined;
}

function compareDoubles(x: number, y: number): number {
  return x < y ? -1 : x > y ? 1 : x === y ? 0 : Number.NaN;
}

// The integer types' bounds as doubles (int64's maximum rounds up to 2^63, as in Go).
const int64Min = -(2 ** 63);
const int64Max = 2 ** 63;
const uint64Max = 2 ** 64;

function compareDoubleToInteger(d: number, i: bigint, unsigned: boolean): number {
  if (Number.isNaN(d)) return Number.NaN;
  if (d < (unsigned ? 0 : int64Min)) return -1;
  if (d > (unsigned ? uint64Max : int64Max)) return 1;
  return compareDoubles(d, Number(i));
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function listsEqual(a: CelList, b: CelList): boolean {
  if (a.size !== b.size) return false;
  if (a.listType !== undefined || b.listType !== undefined) return sameMembers(a, b);
  for (let i = 0; i < a.size; i++) if (!celEquals(a.get(i), b.get(i))) return false;
  return true;
}

/** Order-insensitive comparison for set and map lists: every element of one matches a distinct element of the other. */
function sameMembers(a: CelList, b: CelList): boolean {
  const unmatched = b.toArray();
  for (const x of a) {
    const at = unmatched.findIndex((y) => celEquals(x, y));
    if (at < 0) return false;
    unmatched.splice(at, 1);
  }
  return true;
}

function mapsEqual(a: CelMap, b: CelMap): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a.entries()) {
    const other = b.get(k);
    if (other === undefined || !celEquals(v, other)) return false;
  }
  return true;
}

function objectsEqual(a: CelObject, b: CelObject): boolean {
  if (a.type.name !== b.type.name) return false;
  const names = new Set([...a.fieldNames(), ...b.fieldNames()]);
  for (const name of names) {
    const x = a.get(name);
    const y = b.get(name);
    if (x === undefined || y === undefined) {
      if (x !== y) return false;
    } else if (!celEquals(x, y)) return false;
  }
  return true;
}
