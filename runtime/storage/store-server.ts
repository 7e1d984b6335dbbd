// The owning side of a store link: runs a RemoteStore's calls on the real Store, which serialises the
// writes of every link, and streams its watches. A watch sends only the events its consumer has asked for
// (RemoteStore asks ahead by a window), so a consumer that stops reading leaves its events in the store's
// own watcher, which falls back to history and fails with CompactedError as a local one would.
import { setImmediate as nextMacrotask } from "node:timers/promises";
import type { Store, WatchEvent } from "./store.js";
import type { StoreLink, StoreMessage, StoreOperation } from "./store-link.js";
import { toWireError } from "./wire-error.js";

interface Forwarder {
  stop: AbortController;
  credit: number;
  wake: (() => void) | undefined;
}

type Call = (store: Store, args: unknown[]) => Promise<unknown>;

const calls: Record<Exclude<StoreOperation, "watch">, Call> = {
  currentRevision: async (store) => {
    const revision = await store.currentRevision();
    // Both backends hand a committed write's events to their watchers in microtasks, before
    // currentRevision() can report it: after one more turn every event up to `revision` that a watch of
    // this link has credit for is in the outbox ahead of this answer, so the far side sees them first.
    await nextMacrotask();
    return revision;
  },
  get: (store, [key, options]) => store.get(key as string, options as Parameters<Store["get"]>[1]),
  list: (store, [prefix, options]) => store.list(prefix as string, options as Parameters<Store["list"]>[1]),
  create: (store, [key, value]) => store.create(key as string, value as Uint8Array),
  update: (store, [key, value, expected]) => store.update(key as string, value as Uint8Array, expected as number),
  delete: (store, [key, options]) => store.delete(key as string, options as Parameters<Store["delete"]>[1]),
  compact: (store, [revision]) => store.compact(revision as number),
  probe: (store) => store.probe(),
};

/** Serves `store` over `link` until the link closes or the returned function is called. */
export function serveStore(store: Store, link: StoreLink): () => void {
  const watches = new Map<number, Forwarder>();
  let detached = false;

  const stopAll = () => {
    for (const forwarder of watches.values()) {
      forwarder.stop.abort();
      forwarder.wake?.();
    }
    watches.clear();
  };

  const forward = async (id: number, events: AsyncIterableIterator<WatchEvent>, forwarder: Forwarder) => {
    try {
      for (;;) {
        while (forwarder.credit === 0 && !forwarder.stop.signal.aborted) {
          await new Promise<void>((resolve) => {
            forwarder.wake = resolve;
          });
        }
        if (forwarder.stop.signal.aborted) return;
        const next = await events.next();
        if (forwarder.stop.signal.aborted) return;
        if (next.done === true) {
          link.send({ t: "end", id });
          return;
        }
        forwarder.credit--;
        link.send({ t: "event", id, event: next.value });
      }
    } catch (error) {
      if (!forwarder.stop.signal.aborted) link.send({ t: "end", id, error: toWireError(error) });
    } finally {
      watches.delete(id);
      await events.return?.();
    }
  };

  const startWatch = async (id: number, [prefix, fromRevision]: unknown[]) => {
    const forwarder: Forwarder = { stop: new AbortController(), credit: 0, wake: undefined };
    let events: AsyncIterableIterator<WatchEvent>;
    try {
      events = await store.watch(prefix as string, fromRevision as number, forwarder.stop.signal);
    } catch (error) {
      link.send({ t: "err", id, error: toWireError(error) });
      return;
    }
    if (detached) {
      await events.return?.();
      return;
    }
    watches.set(id, forwarder);
    link.send({ t: "ok", id, value: undefined });
    void forward(id, events, forwarder);
  };

  const onMessage = (message: StoreMessage) => {
    if (detached) return;
    switch (message.t) {
      case "call": {
        if (message.op === "watch") {
          void startWatch(message.id, message.args);
          return;
        }
        const call = calls[message.op];
        if (call === undefined) {
          link.send({ t: "err", id: message.id, error: { name: "Error", message: `unknown operation ${message.op}` } });
          return;
        }
        call(store, message.args).then(
          (value) => link.send({ t: "ok", id: message.id, value }),
          (error: unknown) => link.send({ t: "err", id: message.id, error: toWireError(error) }),
        );
        return;
      }
      case "pull": {
        const forwarder = watches.get(message.id);
        if (forwarder === undefined) return;
        forwarder.credit += message.n;
        const wake = forwarder.wake;
        forwarder.wake = undefined;
        wake?.();
        return;
      }
      case "stop": {
        const forwarder = watches.get(message.id);
        if (forwarder === undefined) return;
        watches.delete(message.id);
        forwarder.stop.abort();
        forwarder.wake?.();
        return;
      }
    }
  };

  link.onMessage(onMessage);
  link.onClose(() => {
    detached = true;
    stopAll();
  });
  return () => {
    detached = true;
    stopAll();
    link.close();
  };
}
