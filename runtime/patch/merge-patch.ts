// JSON merge patch (RFC 7386): objects merge key by key, null removes a key, anything else replaces.
// Keys are read and written as own properties, so a `__proto__` member is data like any other.
import { setKey } from "../codecs/parsed-body.js";

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) return patch;
  const base: Record<string, unknown> = {};
  if (typeof target === "object" && target !== null && !Array.isArray(target)) {
    for (const [key, value] of Object.entries(target)) setKey(base, key, value);
  }
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete base[key];
    else setKey(base, key, applyMergePatch(Object.hasOwn(base, key) ? base[key] : undefined, value));
  }
  return base;
}
