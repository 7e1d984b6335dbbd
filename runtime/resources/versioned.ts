// Reads are stored objects shown in the version a client asked for. Each stored version of an object is
// converted at most once per served version and serialized at most once per encoding; every reader and
// watcher shares the result.
import { conversionTable } from "../../generated/conversions.js";
import { escapeGoJson } from "../codecs/encode-response.js";
import { convert } from "../conversion/convert.js";
import type { JsonObject } from "../conversion/json-values.js";
import type { ServedKind } from "../registry/lookup.js";
import type { KubeObject } from "../strategies/strategy.js";
import { type CachedObject, deepFreeze } from "../watch-cache/cached-object.js";
import { storageKindOf } from "./kinds.js";

const conversions = new WeakMap<CachedObject<KubeObject>, Map<string, KubeObject>>();
const encoder = new TextEncoder();

/** `obj` (any served version of the kind's group) in `version`, as a new object. */
export function toVersion(obj: KubeObject, version: string): KubeObject {
  return convert(conversionTable, obj as JsonObject, version) as KubeObject;
}

/** The cached object in `kind`'s version: deep-frozen and shared, copy before changing. */
export function viewAt(cached: CachedObject<KubeObject>, kind: ServedKind): KubeObject {
  if (storageKindOf(kind).version === kind.version) return cached.object;
  let byVersion = conversions.get(cached);
  if (byVersion === undefined) {
    byVersion = new Map();
    conversions.set(cached, byVersion);
  }
  let view = byVersion.get(kind.version);
  if (view === undefined) {
    view = deepFreeze(toVersion(cached.object, kind.version));
    byVersion.set(kind.version, view);
  }
  return view;
}

/** JSON bytes (as Go encodes them, no trailing newline) of the cached object in `kind`'s version, made once and kept with the object. */
export function jsonAt(cached: CachedObject<KubeObject>, kind: ServedKind): Uint8Array {
  const key = `json:${kind.version}`;
  let bytes = cached.encoded.get(key);
  if (bytes === undefined) {
    bytes = encoder.encode(escapeGoJson(JSON.stringify(viewAt(cached, kind))));
    cached.encoded.set(key, bytes);
  }
  return bytes;
}
