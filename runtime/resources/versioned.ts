// Reads are stored objects shown in the version a client asked for. Each stored version of an object is
// converted at most once per served version and serialized at most once per encoding; every reader and
// watcher shares the result. Custom resources are converted by their definition (a webhook round trip is
// made ahead of the synchronous view, by `prepareViews`) and get their schema's defaults on every read.
import { escapeGoJson } from "../codecs/encode-response.js";
import { internal } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { apiVersionOf, storageKindOf, storedAsServed } from "../registry/kinds.js";
import type { ServedKind } from "../registry/served-kind.js";
import { type CachedObject, deepFreeze } from "../watch-cache/cached-object.js";

const conversions = new WeakMap<CachedObject<KubeObject>, Map<string, KubeObject>>();
const encoder = new TextEncoder();

function isAt(obj: KubeObject, kind: ServedKind, version: string): boolean {
  return obj.apiVersion === apiVersionOf({ group: kind.group, version });
}

/** `obj` (any version of `kind`'s group) in `version` of it, without a round trip; undefined when one is needed. */
function convertNow(kind: ServedKind, obj: KubeObject, version: string): KubeObject | undefined {
  if (isAt(obj, kind, version)) return structuredClone(obj);
  return kind.versions.convertSync?.(obj, version);
}

/** `obj` (any version of `kind`'s group) in `version` of it, as a new object. */
export async function convertTo(kind: ServedKind, obj: KubeObject, version: string): Promise<KubeObject> {
  const now = convertNow(kind, obj, version);
  if (now !== undefined) return now;
  const [converted] = await kind.versions.convert([obj], version);
  if (converted === undefined) throw internal(`conversion to ${version} returned no object`);
  return converted;
}

/** `obj` (as served by `kind`) as it is stored: in its storage version, in another group's kind for a `storedAs` resource. */
export function toStorage(kind: ServedKind, obj: KubeObject): Promise<KubeObject> {
  const storage = storageKindOf(kind);
  return convertTo(storage, obj, storage.version);
}

/** As convertTo, for callers that cannot wait (field selectors); a webhook conversion is an error there. */
export function convertToSync(kind: ServedKind, obj: KubeObject, version: string): KubeObject {
  const now = convertNow(kind, obj, version);
  if (now === undefined) throw internal(`${kind.resource.plural}.${kind.group}: this needs a conversion webhook call`);
  return now;
}

/** The key a view of `kind` is kept under: a custom kind's views go when its definition changes. */
function viewKey(kind: ServedKind): string {
  // The apiVersion, not the version alone: one stored object is viewed by two groups when a resource is
  // stored as another's (core/v1 and events.k8s.io/v1 Events).
  const apiVersion = apiVersionOf(kind);
  return kind.versions.viewKey === "" ? apiVersion : `${apiVersion}:${kind.versions.viewKey}`;
}

function views(cached: CachedObject<KubeObject>): Map<string, KubeObject> {
  let byVersion = conversions.get(cached);
  if (byVersion === undefined) {
    byVersion = new Map();
    conversions.set(cached, byVersion);
  }
  return byVersion;
}

function finishView(kind: ServedKind, obj: KubeObject): KubeObject {
  kind.versions.finishRead?.(obj);
  return deepFreeze(obj);
}

/**
 * Makes the views `viewAt` will be asked for that need a round trip (custom resources with a webhook), in one
 * call, kept with the cached objects: for watch events, which every watcher of the version shares.
 */
export async function prepareViews(items: readonly CachedObject<KubeObject>[], kind: ServedKind): Promise<void> {
  if (kind.versions.convertSync !== undefined) return;
  const key = viewKey(kind);
  const missing = items.filter((c) => !views(c).has(key) && !isAt(c.object, kind, kind.version));
  if (missing.length === 0) return;
  const converted = await kind.versions.convert(
    missing.map((c) => c.object),
    kind.version,
  );
  missing.forEach((c, i) => {
    const view = converted[i];
    if (view !== undefined) views(c).set(key, finishView(kind, view));
  });
}

/**
 * The objects a get or list answers with. A conversion webhook is asked on every read, as kube asks it (its
 * answer may change): such reads get copies of the cached entries whose views live as long as the request.
 */
export async function readViews(
  items: readonly CachedObject<KubeObject>[],
  kind: ServedKind,
): Promise<CachedObject<KubeObject>[]> {
  if (kind.versions.convertSync !== undefined) return [...items];
  const copies = items.map((c) => ({ ...c, encoded: new Map<string, Uint8Array>() }));
  await prepareViews(copies, kind);
  return copies;
}

/** The cached object in `kind`'s version: deep-frozen and shared, copy before changing. */
export function viewAt(cached: CachedObject<KubeObject>, kind: ServedKind): KubeObject {
  if (kind.versions.finishRead === undefined && storedAsServed(kind)) return cached.object;
  const byVersion = views(cached);
  const key = viewKey(kind);
  let view = byVersion.get(key);
  if (view === undefined) {
    view = finishView(kind, convertToSync(kind, cached.object, kind.version));
    byVersion.set(key, view);
  }
  return view;
}

/** JSON bytes (as Go encodes them, no trailing newline) of the cached object in `kind`'s version, made once and kept with the object. */
export function jsonAt(cached: CachedObject<KubeObject>, kind: ServedKind): Uint8Array {
  const key = `json:${viewKey(kind)}`;
  let bytes = cached.encoded.get(key);
  if (bytes === undefined) {
    bytes = encoder.encode(escapeGoJson(JSON.stringify(viewAt(cached, kind))));
    cached.encoded.set(key, bytes);
  }
  return bytes;
}
