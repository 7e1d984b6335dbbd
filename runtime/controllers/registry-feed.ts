// Every stored object of every resource from one list and one watch on the store's "/registry/" range,
// instead of a watch cache per resource: the garbage collector must see all resources, and most of
// them are never read by clients, so opening all their caches would cost a list and a watch each.
// When the store can no longer replay what the feed missed (compaction), it lists again and resets; so it
// does when the served kinds change (a custom resource served or gone), since objects of a kind it did not
// know were skipped.

import type { KubeObject } from "../object/kube-object.js";
import type { KindRegistry } from "../registry/kind-registry.js";
import type { ServedKind } from "../registry/served-kind.js";
import { decodeStored } from "../resources/resource-storage.js";
import { storagePrefix } from "../resources/storage-key.js";
import { CompactedError, StoreClosedError } from "../storage/storage-errors.js";
import type { KeyValue, Store } from "../storage/store.js";
import type { ControllerContext } from "./controller-context.js";
import { watchLoopBackoff } from "./watch-loop-backoff.js";

export interface StoredObject {
  key: string;
  /** The storage-version kind of the object's resource. */
  kind: ServedKind;
  namespace: string | undefined;
  name: string;
  object: KubeObject;
}

export interface FeedHandlers {
  /** The whole state at one revision: at start and after every relist. */
  reset(objects: StoredObject[]): void;
  put(object: StoredObject): void;
  remove(key: string): void;
}

const registryPrefix = "/registry/";
const pageSize = 1000;

type KindsByPrefix = ReadonlyMap<string, ServedKind>;

function kindsByPrefix(kinds: KindRegistry): KindsByPrefix {
  return new Map(
    kinds.storedResources().map((kind) => [storagePrefix({ group: kind.group, resource: kind.resource.plural }), kind]),
  );
}

/** The resource prefix of a key: its first three segments, `/registry/<group>/<resource>/`. */
function prefixOf(key: string): string | undefined {
  let slash = registryPrefix.length - 1;
  for (let i = 0; i < 2; i++) {
    slash = key.indexOf("/", slash + 1);
    if (slash < 0) return undefined;
  }
  return key.slice(0, slash + 1);
}

function parse(kv: KeyValue, byPrefix: KindsByPrefix): StoredObject | undefined {
  const prefix = prefixOf(kv.key);
  const kind = prefix === undefined ? undefined : byPrefix.get(prefix);
  if (prefix === undefined || kind === undefined) return undefined;
  const rest = kv.key.slice(prefix.length);
  const slash = rest.indexOf("/");
  const namespaced = kind.resource.scope === "Namespaced";
  if (namespaced !== slash >= 0) return undefined;
  return {
    key: kv.key,
    kind,
    namespace: namespaced ? rest.slice(0, slash) : undefined,
    name: namespaced ? rest.slice(slash + 1) : rest,
    object: decodeStored(kv),
  };
}

async function listAll(store: Store, byPrefix: KindsByPrefix): Promise<{ objects: StoredObject[]; revision: number }> {
  const objects: StoredObject[] = [];
  let revision = 0;
  let startKey: string | undefined;
  for (;;) {
    const page = await store.list(registryPrefix, {
      limit: pageSize,
      ...(revision === 0 ? {} : { revision }),
      ...(startKey === undefined ? {} : { startKey }),
    });
    revision = page.revision;
    for (const kv of page.kvs) {
      const parsed = parse(kv, byPrefix);
      if (parsed !== undefined) objects.push(parsed);
    }
    const last = page.kvs.at(-1);
    if (!page.more || last === undefined) return { objects, revision };
    startKey = `${last.key}\u0000`;
  }
}

/** Runs until the signal aborts. */
export async function followRegistry(
  store: Store,
  kinds: KindRegistry,
  handlers: FeedHandlers,
  options: ControllerContext,
): Promise<void> {
  const { signal } = options;
  const backoff = watchLoopBackoff();
  let changed = new AbortController();
  const stopListening = kinds.onChange(() => changed.abort());
  signal.addEventListener("abort", () => changed.abort(), { once: true });
  try {
    while (!signal.aborted) {
      if (changed.signal.aborted) changed = new AbortController();
      const watching = changed.signal;
      try {
        const byPrefix = kindsByPrefix(kinds);
        const { objects, revision } = await listAll(store, byPrefix);
        handlers.reset(objects);
        const events = await store.watch(registryPrefix, revision, watching);
        backoff.reset();
        for await (const event of events) {
          if (event.type === "delete") handlers.remove(event.kv.key);
          else {
            const parsed = parse(event.kv, byPrefix);
            if (parsed !== undefined) handlers.put(parsed);
          }
        }
        // The store ends watches when it closes, or when the served kinds changed: list again then.
        if (!watching.aborted) return;
      } catch (error) {
        if (signal.aborted || error instanceof StoreClosedError) return;
        if (watching.aborted) continue;
        if (!(error instanceof CompactedError)) options.log("registry feed: following the store failed", error);
        await backoff.wait(signal);
      }
    }
  } finally {
    stopListening();
  }
}
