// The storage conformance suite every backend runs. It lives under test/ rather than runtime/storage/
// because it imports vitest, a dev dependency, and runtime/ is what `npm run build` ships.
import { describe, expect, it } from "vitest";
import {
  CompactedError,
  ConflictError,
  FutureRevisionError,
  KeyExistsError,
  NotFoundError,
  StoreClosedError,
} from "../../../runtime/storage/storage-errors.js";
import type { KeyValue, Store, WatchEvent } from "../../../runtime/storage/store.js";
import type { WatchHubOptions } from "../../../runtime/storage/watch-hub.js";

export type NewStore = (options?: WatchHubOptions) => Promise<Store>;
/** Closes a persistent store and opens the same data again. */
export type Reopen = (store: Store) => Promise<Store>;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const bytes = (text: string) => encoder.encode(text);
const text = (kv: KeyValue | undefined) => (kv === undefined ? undefined : decoder.decode(kv.value));

/** A readable summary of an event: `put /a=1@3` or `delete /a@4 (was 1@3)`. */
function show(event: WatchEvent): string {
  const prev = event.prevKv === undefined ? "" : ` (was ${text(event.prevKv)}@${event.prevKv.modRevision})`;
  const value = event.type === "put" ? `=${text(event.kv)}` : "";
  return `${event.type} ${event.kv.key}${value}@${event.revision}${prev}`;
}

async function take(watch: AsyncIterator<WatchEvent>, n: number): Promise<string[]> {
  const events: string[] = [];
  while (events.length < n) {
    const next = await watch.next();
    if (next.done === true) break;
    events.push(show(next.value));
  }
  return events;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

export function runStorageSuite(name: string, newStore: NewStore, reopen?: Reopen): void {
  describe(`storage conformance: ${name}`, () => {
    describe("writes", () => {
      it("starts at revision 1 with nothing stored", async () => {
        const store = await newStore();
        expect(await store.currentRevision()).toBe(1);
        expect(await store.get("/a")).toBeUndefined();
        expect(await store.list("/")).toEqual({ kvs: [], revision: 1, more: false, count: 0 });
        await store.close();
      });

      it("creates, and refuses to create an existing key", async () => {
        const store = await newStore();
        const kv = await store.create("/registry/pods/ns/a", bytes("one"));
        expect({ ...kv, value: text(kv) }).toEqual({
          key: "/registry/pods/ns/a",
          value: "one",
          createRevision: 2,
          modRevision: 2,
          version: 1,
        });
        expect(text(await store.get("/registry/pods/ns/a"))).toBe("one");
        const error = await rejection(store.create("/registry/pods/ns/a", bytes("two")));
        expect(error).toBeInstanceOf(KeyExistsError);
        expect((error as KeyExistsError).key).toBe("/registry/pods/ns/a");
        expect(await store.currentRevision()).toBe(2);
        await store.close();
      });

      it("round-trips arbitrary bytes", async () => {
        const store = await newStore();
        const value = Uint8Array.from({ length: 256 }, (_, i) => i);
        await store.create("/bin", value);
        expect(Array.from((await store.get("/bin"))?.value ?? [])).toEqual(Array.from(value));
        await store.create("/empty", new Uint8Array(0));
        expect((await store.get("/empty"))?.value.length).toBe(0);
        await store.close();
      });

      it("updates guarded by the previous modRevision", async () => {
        const store = await newStore();
        await store.create("/a", bytes("1"));
        await store.create("/b", bytes("x"));
        const kv = await store.update("/a", bytes("2"), 2);
        expect({ ...kv, value: text(kv) }).toEqual({
          key: "/a",
          value: "2",
          createRevision: 2,
          modRevision: 4,
          version: 2,
        });
        const error = await rejection(store.update("/a", bytes("3"), 2));
        expect(error).toBeInstanceOf(ConflictError);
        expect((error as ConflictError).current.modRevision).toBe(4);
        expect(text((error as ConflictError).current)).toBe("2");
        expect(await rejection(store.update("/missing", bytes("3"), 2))).toBeInstanceOf(NotFoundError);
        expect(await store.currentRevision()).toBe(4);
        await store.close();
      });

      it("deletes with and without a precondition", async () => {
        const store = await newStore();
        await store.create("/a", bytes("1"));
        await store.create("/b", bytes("1"));
        const conflict = await rejection(store.delete("/a", { expectedModRevision: 3 }));
        expect(conflict).toBeInstanceOf(ConflictError);
        expect((conflict as ConflictError).current.modRevision).toBe(2);
        const deleted = await store.delete("/a", { expectedModRevision: 2 });
        expect(deleted.revision).toBe(4);
        expect({ ...deleted.kv, value: text(deleted.kv) }).toEqual({
          key: "/a",
          value: "1",
          createRevision: 2,
          modRevision: 2,
          version: 1,
        });
        expect((await store.delete("/b")).revision).toBe(5);
        expect(await rejection(store.delete("/a"))).toBeInstanceOf(NotFoundError);
        expect(await store.get("/a")).toBeUndefined();
        const again = await store.create("/a", bytes("new"));
        expect([again.createRevision, again.modRevision, again.version]).toEqual([6, 6, 1]);
        await store.close();
      });
    });

    describe("reads", () => {
      it("reads the state as of an older revision", async () => {
        const store = await newStore();
        await store.create("/a", bytes("1")); // 2
        await store.create("/b", bytes("1")); // 3
        await store.update("/a", bytes("2"), 2); // 4
        await store.delete("/b"); // 5
        expect(text(await store.get("/a", { revision: 3 }))).toBe("1");
        expect(text(await store.get("/a", { revision: 4 }))).toBe("2");
        expect(await store.get("/a", { revision: 1 })).toBeUndefined();
        expect(text(await store.get("/b", { revision: 4 }))).toBe("1");
        expect(await store.get("/b")).toBeUndefined();
        const at3 = await store.list("/", { revision: 3 });
        expect(at3.revision).toBe(3);
        expect(at3.kvs.map((kv) => `${kv.key}=${text(kv)}`)).toEqual(["/a=1", "/b=1"]);
        const now = await store.list("/");
        expect(now.revision).toBe(5);
        expect(now.kvs.map((kv) => `${kv.key}=${text(kv)}`)).toEqual(["/a=2"]);
        const future = await rejection(store.get("/a", { revision: 6 }));
        expect(future).toBeInstanceOf(FutureRevisionError);
        expect(await rejection(store.list("/", { revision: 6 }))).toBeInstanceOf(FutureRevisionError);
        await store.close();
      });

      it("lists a prefix in key byte order and nothing outside it", async () => {
        const store = await newStore();
        for (const key of ["/r/pods/b", "/r/pods/a", "/r/podsx/a", "/r/pod", "/r/pods/\u{1F600}", "/r/pods/\uFFFD"]) {
          await store.create(key, bytes(key));
        }
        const { kvs, count, more } = await store.list("/r/pods/");
        expect(kvs.map((kv) => kv.key)).toEqual(["/r/pods/a", "/r/pods/b", "/r/pods/\uFFFD", "/r/pods/\u{1F600}"]);
        expect([count, more]).toEqual([4, false]);
        expect((await store.list("")).count).toBe(6);
        await store.close();
      });

      it("pages with startKey and limit through one revision while writes go on", async () => {
        const store = await newStore();
        for (let i = 0; i < 10; i++) await store.create(`/p/${i}`, bytes(`${i}`));
        const first = await store.list("/p/", { limit: 4 });
        expect(first.kvs.map((kv) => kv.key)).toEqual(["/p/0", "/p/1", "/p/2", "/p/3"]);
        expect([first.more, first.count, first.revision]).toEqual([true, 10, 11]);
        await store.delete("/p/5");
        await store.create("/p/45", bytes("late"));
        await store.update("/p/6", bytes("changed"), 8);
        const keys = first.kvs.map((kv) => kv.key);
        let startKey = `${keys.at(-1)}\0`;
        for (;;) {
          const page = await store.list("/p/", { revision: first.revision, startKey, limit: 4 });
          expect(page.revision).toBe(first.revision);
          expect(page.count).toBe(10 - keys.length);
          keys.push(...page.kvs.map((kv) => kv.key));
          if (page.kvs.some((kv) => kv.key === "/p/6")) {
            expect(text(page.kvs.find((kv) => kv.key === "/p/6"))).toBe("6");
          }
          if (!page.more) break;
          startKey = `${keys.at(-1)}\0`;
        }
        expect(keys).toEqual(Array.from({ length: 10 }, (_, i) => `/p/${i}`));
        const now = await store.list("/p/", { startKey: "/p/4", limit: 2 });
        expect(now.kvs.map((kv) => kv.key)).toEqual(["/p/4", "/p/45"]);
        expect((await store.list("/p/", { startKey: "/q" })).kvs).toEqual([]);
        await store.close();
      });

      it("lists 10k keys in pages", async () => {
        const store = await newStore();
        for (let i = 0; i < 10_000; i++) {
          await store.create(`/registry/configmaps/ns/cm-${String(i).padStart(5, "0")}`, bytes(`{"i":${i}}`));
        }
        const all = await store.list("/registry/configmaps/");
        expect(all.kvs.length).toBe(10_000);
        let startKey: string | undefined;
        let seen = 0;
        for (;;) {
          const page = await store.list("/registry/configmaps/", {
            revision: all.revision,
            limit: 500,
            ...(startKey === undefined ? {} : { startKey }),
          });
          seen += page.kvs.length;
          if (!page.more) break;
          startKey = `${page.kvs.at(-1)?.key}\0`;
        }
        expect(seen).toBe(10_000);
        await store.close();
      });
    });

    describe("watch", () => {
      it("delivers puts and deletes with their previous entries", async () => {
        const store = await newStore();
        const watch = await store.watch("/w/", 1);
        await store.create("/w/a", bytes("1"));
        await store.create("/other", bytes("x"));
        await store.update("/w/a", bytes("2"), 2);
        await store.delete("/w/a");
        expect(await take(watch, 3)).toEqual(["put /w/a=1@2", "put /w/a=2@4 (was 1@2)", "delete /w/a@5 (was 2@4)"]);
        await watch.return?.();
        const replay = await store.watch("/w/", 1);
        const events: WatchEvent[] = [];
        for (let i = 0; i < 3; i++) {
          const next = await replay.next();
          if (next.done !== true) events.push(next.value);
        }
        const deleted = events[2] as WatchEvent;
        expect({ ...deleted.kv, value: text(deleted.kv) }).toEqual({
          key: "/w/a",
          value: "",
          createRevision: 0,
          modRevision: 5,
          version: 0,
        });
        expect(deleted.prevKv && [deleted.prevKv.createRevision, deleted.prevKv.version]).toEqual([2, 2]);
        expect(events[1]?.prevKv && [events[1].prevKv.createRevision, events[1].prevKv.version]).toEqual([2, 1]);
        await store.close();
      });

      it("joins history and live events without gap or duplicate", async () => {
        const store = await newStore({ pageSize: 2 });
        for (let i = 0; i < 5; i++) await store.create(`/k/${i}`, bytes(`${i}`)); // 2..6
        const watch = await store.watch("/k/", 1);
        await store.create("/k/5", bytes("5")); // 7, while history is unread
        const first = await take(watch, 3);
        await store.create("/k/6", bytes("6")); // 8, mid-history
        const rest = await take(watch, 4);
        await store.create("/k/7", bytes("7")); // 9, live
        const live = await take(watch, 1);
        expect([...first, ...rest, ...live]).toEqual(Array.from({ length: 8 }, (_, i) => `put /k/${i}=${i}@${i + 2}`));
        await store.close();
      });

      it("starts after the given revision, including one not yet reached", async () => {
        const store = await newStore();
        await store.create("/a", bytes("1")); // 2
        await store.create("/b", bytes("1")); // 3
        const fromMiddle = await store.watch("/", 2);
        expect(await take(fromMiddle, 1)).toEqual(["put /b=1@3"]);
        const fromFuture = await store.watch("/", 4);
        await store.create("/c", bytes("1")); // 4
        await store.create("/d", bytes("1")); // 5
        expect(await take(fromFuture, 1)).toEqual(["put /d=1@5"]);
        await store.close();
      });

      it("serves concurrent watchers independently", async () => {
        const store = await newStore();
        await store.create("/x/a", bytes("1")); // 2
        const all = await store.watch("", 1);
        const xs = await store.watch("/x/", 2);
        const ys = await store.watch("/y/", 1);
        const writes = (async () => {
          for (let i = 0; i < 20; i++) {
            await store.create(`/${i % 2 === 0 ? "x" : "y"}/${i}`, bytes(`${i}`));
            await Promise.resolve();
          }
        })();
        const [allEvents, xEvents, yEvents] = await Promise.all([take(all, 21), take(xs, 10), take(ys, 10), writes]);
        expect(allEvents[0]).toBe("put /x/a=1@2");
        expect(allEvents.length).toBe(21);
        expect(xEvents).toEqual(Array.from({ length: 10 }, (_, i) => `put /x/${2 * i}=${2 * i}@${2 * i + 3}`));
        expect(yEvents).toEqual(Array.from({ length: 10 }, (_, i) => `put /y/${2 * i + 1}=${2 * i + 1}@${2 * i + 4}`));
        await store.close();
      });

      it("lets a slow consumer fall behind and catch up from history", async () => {
        const store = await newStore({ maxQueued: 3, pageSize: 4 });
        const watch = await store.watch("/s/", 1);
        for (let i = 0; i < 20; i++) await store.create(`/s/${i}`, bytes(`${i}`));
        const events = await take(watch, 10);
        for (let i = 20; i < 30; i++) await store.create(`/s/${i}`, bytes(`${i}`));
        events.push(...(await take(watch, 20)));
        expect(events).toEqual(Array.from({ length: 30 }, (_, i) => `put /s/${i}=${i}@${i + 2}`));
        await store.close();
      });

      it("stops on abort, on return and on close", async () => {
        const store = await newStore();
        const controller = new AbortController();
        const aborted = await store.watch("/", 1, controller.signal);
        const pending = aborted.next();
        controller.abort();
        expect(await pending).toEqual({ done: true, value: undefined });
        const returned = await store.watch("/", 1);
        await returned.return?.();
        await store.create("/a", bytes("1"));
        expect(await returned.next()).toEqual({ done: true, value: undefined });
        const open = await store.watch("/", 2);
        const waiting = open.next();
        await store.close();
        expect(await waiting).toEqual({ done: true, value: undefined });
      });
    });

    describe("compaction", () => {
      it("keeps the state at and after the compact revision and forgets the rest", async () => {
        const store = await newStore();
        await store.create("/a", bytes("1")); // 2
        await store.create("/b", bytes("1")); // 3
        await store.update("/a", bytes("2"), 2); // 4
        await store.delete("/b"); // 5
        await store.create("/c", bytes("1")); // 6
        await store.compact(5);
        const gone = await rejection(store.get("/a", { revision: 4 }));
        expect(gone).toBeInstanceOf(CompactedError);
        expect((gone as CompactedError).compactRevision).toBe(5);
        expect(await rejection(store.list("/", { revision: 3 }))).toBeInstanceOf(CompactedError);
        expect((await store.list("/", { revision: 5 })).kvs.map((kv) => `${kv.key}=${text(kv)}`)).toEqual(["/a=2"]);
        expect((await store.list("/")).kvs.map((kv) => kv.key)).toEqual(["/a", "/c"]);
        expect(await store.get("/b", { revision: 5 })).toBeUndefined();
        await store.create("/b", bytes("again"));
        expect(text(await store.get("/b"))).toBe("again");
        await store.close();
      });

      it("fails watches from before the compact revision and serves the ones after", async () => {
        const store = await newStore();
        await store.create("/a", bytes("1")); // 2
        await store.update("/a", bytes("2"), 2); // 3
        await store.delete("/a"); // 4
        await store.compact(3);
        const error = await rejection(store.watch("/", 2));
        expect(error).toBeInstanceOf(CompactedError);
        expect((error as CompactedError).compactRevision).toBe(3);
        expect(await take(await store.watch("/", 3), 1)).toEqual(["delete /a@4 (was 2@3)"]);
        await store.close();
      });

      it("fails a watcher that fell behind the compact revision", async () => {
        const store = await newStore({ maxQueued: 2 });
        const watch = await store.watch("/", 1);
        for (let i = 0; i < 5; i++) await store.create(`/${i}`, bytes(`${i}`));
        await store.compact(4);
        const error = await rejection(watch.next());
        expect(error).toBeInstanceOf(CompactedError);
        expect(await watch.next()).toEqual({ done: true, value: undefined });
        await store.close();
      });

      it("refuses to compact the past again or the future", async () => {
        const store = await newStore();
        await store.create("/a", bytes("1"));
        await store.create("/b", bytes("1"));
        await store.compact(2);
        expect(await rejection(store.compact(2))).toBeInstanceOf(CompactedError);
        expect(await rejection(store.compact(9))).toBeInstanceOf(FutureRevisionError);
        await store.compact(3);
        expect(await store.currentRevision()).toBe(3);
        await store.close();
      });
    });

    it("answers a probe while open and fails it once closed", async () => {
      const store = await newStore();
      await store.probe();
      await store.create("/a", bytes("1"));
      await store.probe();
      await store.close();
      expect(await rejection(store.probe())).toBeInstanceOf(StoreClosedError);
    });

    it("refuses calls after close", async () => {
      const store = await newStore();
      await store.close();
      expect(await rejection(store.get("/a"))).toBeInstanceOf(StoreClosedError);
      expect(await rejection(store.create("/a", bytes("1")))).toBeInstanceOf(StoreClosedError);
    });

    describe.skipIf(reopen === undefined)("restart", () => {
      it("keeps every acknowledged write, the revision and the compaction", async () => {
        const reopenStore = reopen as Reopen;
        let store = await newStore();
        await store.create("/a", bytes("1")); // 2
        await store.update("/a", bytes("2"), 2); // 3
        await store.create("/b", bytes("1")); // 4
        await store.compact(3);
        await store.delete("/b"); // 5
        await store.compact(5);
        store = await reopenStore(store);
        expect(await store.currentRevision()).toBe(5);
        expect(text(await store.get("/a"))).toBe("2");
        expect(await store.get("/b")).toBeUndefined();
        expect(await rejection(store.get("/a", { revision: 4 }))).toBeInstanceOf(CompactedError);
        const created = await store.create("/c", bytes("1"));
        expect(created.modRevision).toBe(6);
        await store.update("/c", bytes("2"), 6); // 7
        store = await reopenStore(store);
        expect(await take(await store.watch("/", 5), 2)).toEqual(["put /c=1@6", "put /c=2@7 (was 1@6)"]);
        expect(text(await store.get("/c", { revision: 6 }))).toBe("1");
        await store.close();
      });
    });
  });
}
