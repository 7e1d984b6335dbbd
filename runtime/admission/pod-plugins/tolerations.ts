// kube's toleration helpers (pkg/util/tolerations, core helper AddOrUpdateTolerationInPod) over tolerations
// as JSON: which toleration tolerates everything another does, merging lists without redundant entries,
// checking a list against a whitelist. Missing string fields read as "", as Go's zero values.
import type { JsonObject } from "../../object/json-object.js";
import { isJsonObject } from "../../object/json-object.js";

interface Toleration {
  key: string;
  operator: string;
  value: string;
  effect: string;
  seconds: number | undefined;
}

function read(t: JsonObject): Toleration {
  const text = (key: string) => (typeof t[key] === "string" ? (t[key] as string) : "");
  const seconds = t.tolerationSeconds;
  return {
    key: text("key"),
    operator: text("operator"),
    value: text("value"),
    effect: text("effect"),
    seconds: typeof seconds === "number" ? seconds : undefined,
  };
}

function same(a: Toleration, b: Toleration): boolean {
  return (
    a.key === b.key &&
    a.operator === b.operator &&
    a.value === b.value &&
    a.effect === b.effect &&
    a.seconds === b.seconds
  );
}

/** Whether `ss` tolerates every taint `t` tolerates (tolerations.isSuperset). */
function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (same(t, ss)) return true;
  if (t.key !== ss.key && (ss.key !== "" || ss.operator !== "Exists")) return false;
  if (t.effect !== ss.effect && ss.effect !== "") return false;
  if (ss.effect === "NoExecute" && ss.seconds !== undefined) {
    if (t.seconds === undefined || t.seconds > ss.seconds) return false;
  }
  switch (ss.operator) {
    case "Equal":
    case "":
      return t.operator === "Equal" && t.value === ss.value;
    case "Exists":
      return true;
    default:
      return false;
  }
}

/** A pod's tolerations (the JSON objects themselves). */
export function tolerationsOf(spec: JsonObject): JsonObject[] {
  return Array.isArray(spec.tolerations) ? spec.tolerations.filter(isJsonObject) : [];
}

/** tolerations.MergeTolerations: both lists in order, without the ones another entry already covers. */
export function mergeTolerations(first: readonly JsonObject[], second: readonly JsonObject[]): JsonObject[] {
  const all = [...first, ...second];
  const parsed = all.map(read);
  const merged: number[] = [];
  next: for (let i = 0; i < all.length; i++) {
    const t = parsed[i] as Toleration;
    for (const j of merged) if (isSuperset(parsed[j] as Toleration, t)) continue next;
    for (let j = i + 1; j < all.length; j++) {
      const t2 = parsed[j] as Toleration;
      if (!same(t, t2) && isSuperset(t2, t)) continue next;
    }
    merged.push(i);
  }
  return merged.map((i) => all[i] as JsonObject);
}

/** tolerations.VerifyAgainstWhitelist: every toleration is covered by some whitelist entry. */
export function verifyAgainstWhitelist(tolerations: readonly JsonObject[], whitelist: readonly JsonObject[]): boolean {
  if (whitelist.length === 0 || tolerations.length === 0) return true;
  const allowed = whitelist.map(read);
  return tolerations.every((t) => {
    const parsed = read(t);
    return allowed.some((w) => isSuperset(w, parsed));
  });
}

/**
 * helper.AddOrUpdateTolerationInPod: replaces the tolerations matching `toleration` on key, effect, operator
 * and value, or appends it. (kube's "already equal" test compares a pointer with a value, so it never holds:
 * a match is always replaced.)
 */
export function addOrUpdateToleration(spec: JsonObject, toleration: JsonObject): void {
  const wanted = read(toleration);
  const matches = (t: Toleration) =>
    t.key === wanted.key && t.effect === wanted.effect && t.operator === wanted.operator && t.value === wanted.value;
  const current = tolerationsOf(spec);
  const result: JsonObject[] = [];
  let updated = false;
  for (const t of current) {
    if (matches(read(t))) {
      result.push({ ...toleration });
      updated = true;
      continue;
    }
    result.push(t);
  }
  if (!updated) result.push(toleration);
  spec.tolerations = result;
}
