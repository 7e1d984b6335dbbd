// corev1.ResourceList as quota computes with it (kube's quota/v1 helpers): resource names to quantities,
// read from and written to the JSON maps of a ResourceQuota's spec and status; LimitRanger reads its lists too.
import {
  addQuantity,
  compareQuantity,
  formatQuantity,
  type Quantity,
  readQuantity,
  subtractQuantity,
  zeroQuantity,
} from "../validation/quantity-arithmetic.js";

export type ResourceList = Map<string, Quantity>;

/**
 * The list a JSON map holds, each value read by `read` (LimitRanger reads them as kube's conversion rounds
 * them); entries that are no quantity are left out.
 */
export function readResourceList(value: unknown, read = readQuantity): ResourceList {
  const list: ResourceList = new Map();
  if (value === null || typeof value !== "object" || Array.isArray(value)) return list;
  for (const [name, raw] of Object.entries(value)) {
    const q = read(raw);
    if (q !== undefined) list.set(name, q);
  }
  return list;
}

/** The JSON map, keys sorted as Go marshals a map. */
export function writeResourceList(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...list.keys()].sort()) out[name] = formatQuantity(list.get(name) as Quantity);
  return out;
}

export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const result: ResourceList = new Map();
  for (const [name, q] of a) {
    const other = b.get(name);
    result.set(name, other === undefined ? q : addQuantity(q, other));
  }
  for (const [name, q] of b) if (!result.has(name)) result.set(name, q);
  return result;
}

/** kube's SubtractWithNonNegativeResult: a − b per name of a, never below zero. */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const result: ResourceList = new Map();
  for (const [name, q] of a) {
    const other = b.get(name);
    const difference = other === undefined ? q : subtractQuantity(q, other);
    result.set(name, compareQuantity(difference, zeroQuantity) < 0 ? zeroQuantity : difference);
  }
  return result;
}

/** Only the entries whose names are given. */
export function maskList(list: ResourceList, names: Iterable<string>): ResourceList {
  const result: ResourceList = new Map();
  for (const name of names) {
    const q = list.get(name);
    if (q !== undefined) result.set(name, q);
  }
  return result;
}

export function removeZeros(list: ResourceList): ResourceList {
  return new Map([...list].filter(([, q]) => compareQuantity(q, zeroQuantity) !== 0));
}

/** The names whose quantity is negative, sorted. */
export function negativeNames(list: ResourceList): string[] {
  return [...list]
    .filter(([, q]) => compareQuantity(q, zeroQuantity) < 0)
    .map(([name]) => name)
    .sort();
}

/** kube's LessThanOrEqual: whether every entry of a with a limit in b is within it, and the names that exceed. */
export function exceeding(a: ResourceList, b: ResourceList): string[] {
  const over: string[] = [];
  for (const [name, q] of a) {
    const limit = b.get(name);
    if (limit !== undefined && compareQuantity(q, limit) > 0) over.push(name);
  }
  return over;
}

/** kube's quota.Equals: the same names with equal values. */
export function listsEqual(a: ResourceList, b: ResourceList): boolean {
  if (a.size !== b.size) return false;
  for (const [name, q] of a) {
    const other = b.get(name);
    if (other === undefined || compareQuantity(q, other) !== 0) return false;
  }
  return true;
}

/** Each name of `names` at zero (CalculateUsageStats' starting point). */
export function zeroList(names: Iterable<string>): ResourceList {
  return new Map([...names].map((name) => [name, zeroQuantity]));
}

/** kube's prettyPrint: `name=value` by sorted name, comma-separated. */
export function printList(list: ResourceList): string {
  return [...list.keys()]
    .sort()
    .map((name) => `${name}=${formatQuantity(list.get(name) as Quantity)}`)
    .join(",");
}
