// JSON merge patch (RFC 7386): objects merge key by key, null removes a key, anything else replaces.
// Keys are read and written as own properties, so a `__proto__` member is data like any other. A patch may
// nest as deep as the decoder allows, so the merge keeps its own stack rather than recursing. Objects are
// read with for…in: decoded JSON has no inherited enumerable members.

import { setKey } from "../codecs/parsed-body.js";
import { isJsonObject, type JsonObject } from "../object/json-object.js";

/** A copy of `target`'s members, or an empty object when it is not one. */
function shallowBase(target: unknown): JsonObject {
  const base: JsonObject = {};
  if (isJsonObject(target)) for (const key in target) setKey(base, key, target[key]);
  return base;
}

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return patch;
  const root = shallowBase(target);
  const pending: [JsonObject, JsonObject][] = [[root, patch]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [base, changes] = next;
    for (const key in changes) {
      const value = changes[key];
      if (value === null) delete base[key];
      else if (!isJsonObject(value)) setKey(base, key, value);
      else {
        const merged = shallowBase(Object.hasOwn(base, key) ? base[key] : undefined);
        setKey(base, key, merged);
        pending.push([merged, value]);
      }
    }
  }
  return root;
}
