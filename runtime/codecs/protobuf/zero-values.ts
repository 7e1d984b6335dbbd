// Which zeros on the wire the client meant. gogo-protobuf writes a Go struct's non-pointer scalars even
// when they are zero, so `imagePullPolicy: ""` arrives for every container; Go's JSON encoder would drop
// it (omitempty), and a pointer set to zero (`replicas: 0`) is a choice to keep. The wire cannot tell the
// two apart, so the schema decides, through the kind's generated validator and defaulter (the form in which
// the runtime has its required lists and defaults):
//
// - a field the schema defaults keeps its zero when it is a number or a boolean (Go defaults those through
//   pointers, so the zero was set: replicas, revisionHistoryLimit, enableServiceLinks) and loses it when it is
//   a string (a defaulted string is a Go value that Go's defaulting fills when empty: restartPolicy, protocol);
// - otherwise a required field keeps its zero (Go writes fields without omitempty: containerPort: 0,
//   status.allowed: false);
// - any other zero is dropped, as omitempty drops it.

import { validation } from "../../../generated/validation.js";
import type { FieldError } from "../../errors/field-error.js";
import type { ZeroFields } from "./decode-message.js";

type JsonObject = Record<string, unknown>;

/**
 * A deep copy without the zero fields, and the copy of each object, to find them again. Copied with a stack of
 * its own: a decoded message may nest thousands of levels deep.
 */
function copyWithout(
  value: unknown,
  left: ReadonlyMap<object, ReadonlySet<string>>,
  copies: Map<object, JsonObject>,
): unknown {
  const copyOf = (v: unknown): unknown => {
    if (Array.isArray(v)) return new Array(v.length);
    if (typeof v !== "object" || v === null || v instanceof Uint8Array) return v;
    const copy: JsonObject = {};
    copies.set(v, copy);
    return copy;
  };
  const root = copyOf(value);
  const pending: [unknown, unknown][] = [[value, root]];
  while (pending.length > 0) {
    const [from, to] = pending.pop() as [unknown, unknown];
    if (from === to) continue;
    if (Array.isArray(from)) {
      for (let i = 0; i < from.length; i++) {
        const copy = copyOf(from[i]);
        (to as unknown[])[i] = copy;
        pending.push([from[i], copy]);
      }
      continue;
    }
    const skip = left.get(from as object);
    for (const [k, v] of Object.entries(from as JsonObject)) {
      if (skip?.has(k)) continue;
      const copy = copyOf(v);
      (to as JsonObject)[k] = copy;
      pending.push([v, copy]);
    }
  }
  return root;
}

function requiredPaths(errors: readonly FieldError[]): Set<string> {
  return new Set(errors.filter((e) => e.type === "FieldValueRequired").map((e) => e.field));
}

/** Removes from `value` (an object of the kind keyed `kindKey` in generated/validation.ts) the zeros nobody set. */
export function dropUnsetZeros(value: JsonObject, kindKey: string, zeros: ZeroFields): void {
  if (zeros.size === 0) return;
  const left = new Map<object, Set<string>>();
  for (const zero of zeros.values()) {
    const keys = left.get(zero.parent) ?? new Set<string>();
    keys.add(zero.key);
    left.set(zero.parent, keys);
  }
  const schema = validation[kindKey];
  const copies = new Map<object, JsonObject>();
  const bare = copyWithout(value, left, copies) as JsonObject;
  const required = requiredPaths(schema?.validate(bare) ?? []);
  schema?.default(bare);
  for (const [path, zero] of zeros) {
    const defaulted = copies.get(zero.parent)?.[zero.key] !== undefined;
    const kept = defaulted ? typeof zero.value !== "string" : required.has(path);
    if (!kept) delete zero.parent[zero.key];
  }
}
