import { afterEach, describe, expect, it } from "vitest";
import { StatusError } from "../../../runtime/errors/status-error.js";
import { MemoryStore } from "../../../runtime/storage/memory-store.js";
import { ContinueExpiredError, TooLargeResourceVersionError } from "../../../runtime/watch-cache/cache-errors.js";
import type { CacheEvent } from "../../../runtime/watch-cache/cache-watch.js";
import { decodeContinue, encodeContinue } from "../../../runtime/watch-cache/continue-token.js";
import { WatchCache } from "../../../runtime/watch-cache/watch-cache.js";

interface Obj {
  name: string;
  app?: string;
}

const prefix = "/registry/things/";
const text = new TextEncoder();
const bytes = (o: Obj) => text.encode(JSON.stringify(o));
let clock = 0;
let open: WatchCache<Obj>[] = [];

async function setup(options: { freshnessTimeoutMs?: number; watchBufferSize?: number } = {}) {
  const store = new MemoryStore();
  clock = 1_000_000;
  const cache = await WatchCache.open<Obj>({
    store,
    prefix,
    decode: (kv) => JSON.parse(new TextDecoder().decode(kv.value)) as Obj,
    now: () => clock,
    freshnessTimeoutMs: options.freshnessTimeoutMs ?? 300,
    ...(options.watchBufferSize !== undefined ? { watchBufferSize: options.watchBufferSize } : {}),
  });
  open.push(cache);
  const put = async (ns: string, name: string, app?: string) => {
    const key = `${prefix}${ns}/${name}`;
    const current = await store.get(key);
    const value = bytes(app === undefined ? { name } : { name, app });
    return current === undefined ? store.create(key, value) : store.update(key, value, current.modRevision);
  };
  const del = (ns: string, name: string) => store.delete(`${prefix}${ns}/${name}`);
  return { store, cache, put, del };
}

afterEach(() => {
  for (const cache of open) cache.close();
  open = [];
});

async function take(watch: AsyncIterator<CacheEvent<Obj>>, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await watch.next();
    if (r.done) break;
    const e = r.value;
    out.push(
      e.type === "BOOKMARK"
        ? `BOOKMARK ${e.resourceVersion}${e.initialEventsEnd ? " end" : ""}`
        : `${e.type} ${e.object.object.name} ${e.resourceVersion}`,
    );
  }
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<StatusError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof StatusError) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

describe("get and list resourceVersion rules", () => {
  it("Most Recent (unset) waits for writes to other prefixes and reports the store's revision", async () => {
    const { cache, put, store } = await setup();
    await put("a", "x");
    await store.create("/registry/other/a/y", bytes({ name: "y" }));
    const list = await cache.list();
    expect(list.resourceVersion).toBe(3);
    expect(list.items.map((i) => i.object.name)).toEqual(["x"]);
    const got = await cache.get(`${prefix}a/x`);
    expect(got.item?.object).toEqual({ name: "x" });
    expect(got.resourceVersion).toBe(3);
  });

  it("Any (0) answers at once with what the cache has", async () => {
    const { cache, put } = await setup();
    await put("a", "x");
    const list = await cache.list({ resourceVersion: "0" });
    expect(list.items).toHaveLength(1);
    expect((await cache.get(`${prefix}a/x`, { resourceVersion: "0" })).item?.object.name).toBe("x");
  });

  it("Not Older Than waits for the revision and times out with kube's 504", async () => {
    const { cache, put } = await setup({ freshnessTimeoutMs: 200 });
    const pending = cache.list({ resourceVersion: "3", resourceVersionMatch: "NotOlderThan" });
    await put("a", "x");
    await put("a", "y");
    expect((await pending).resourceVersion).toBeGreaterThanOrEqual(3);
    const error = await rejection(cache.get(`${prefix}a/x`, { resourceVersion: "12" }));
    expect(error).toBeInstanceOf(TooLargeResourceVersionError);
    expect(error.status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "Timeout: Too large resource version: 12, current: 3",
      reason: "Timeout",
      details: {
        causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
        retryAfterSeconds: 1,
      },
      code: 504,
    });
  });

  it("Exact serves the state at an older revision from history", async () => {
    const { cache, put, del } = await setup();
    await put("a", "x", "v1"); // 2
    await put("a", "y"); // 3
    await put("a", "x", "v2"); // 4
    await del("a", "y"); // 5
    await put("a", "z"); // 6
    const at3 = await cache.list({ resourceVersion: "3", resourceVersionMatch: "Exact" });
    expect(at3.resourceVersion).toBe(3);
    expect(at3.items.map((i) => i.object)).toEqual([{ name: "x", app: "v1" }, { name: "y" }]);
    const limited = await cache.list({ resourceVersion: "4", limit: 10 });
    expect(limited.items.map((i) => i.object.name)).toEqual(["x", "y"]);
    const now = await cache.list({ resourceVersion: "6", resourceVersionMatch: "Exact" });
    expect(now.items.map((i) => i.object.name)).toEqual(["x", "z"]);
  });

  it("Exact older than the window is 410 Expired", async () => {
    const { cache, put } = await setup();
    await put("a", "x");
    await put("a", "y");
    clock += 5 * 60_000;
    await put("a", "z"); // evicts the two changes before it
    const error = await rejection(cache.list({ resourceVersion: "2", resourceVersionMatch: "Exact" }));
    expect(error.status.code).toBe(410);
    expect(error.status.reason).toBe("Expired");
    expect(error.status.message).toBe("The resourceVersion for the provided list is too old.");
    expect((await cache.list({ resourceVersion: "3", resourceVersionMatch: "Exact" })).items).toHaveLength(2);
  });

  it("rejects an unparsable resourceVersion with 400", async () => {
    const { cache } = await setup();
    const error = await rejection(cache.list({ resourceVersion: "abc" }));
    expect(error.status.code).toBe(400);
    expect(error.status.message).toBe(
      'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
    );
  });

  it("lists one namespace by its key range", async () => {
    const { cache, put } = await setup();
    await put("a", "x");
    await put("a-b", "y");
    await put("b", "z");
    expect((await cache.list({ namespace: "a" })).items.map((i) => i.key)).toEqual([`${prefix}a/x`]);
  });

  it("shares one frozen object between readers", async () => {
    const { cache, put } = await setup();
    await put("a", "x");
    const one = await cache.list();
    const two = await cache.get(`${prefix}a/x`);
    expect(one.items[0]?.object).toBe(two.item?.object);
    expect(Object.isFrozen(two.item?.object)).toBe(true);
  });
});

describe("limit and continue", () => {
  it("pages at one revision, with remainingItemCount except on the last chunk", async () => {
    const { cache, put } = await setup();
    for (const name of ["a", "b", "c", "d", "e"]) await put("ns", name);
    const first = await cache.list({ limit: 2 });
    expect(first.items.map((i) => i.object.name)).toEqual(["a", "b"]);
    expect(first.remainingItemCount).toBe(3);
    expect(decodeContinue(first.continue ?? "", prefix)).toEqual({ startKey: `${prefix}ns/b\u0000`, revision: 6 });
    expect(JSON.parse(Buffer.from(first.continue ?? "", "base64url").toString())).toEqual({
      v: "meta.k8s.io/v1",
      rv: 6,
      start: "ns/b\u0000",
    });
    await put("ns", "bb");
    await put("ns", "a", "changed");
    const second = await cache.list({ limit: 2, continue: first.continue ?? "" });
    expect(second.resourceVersion).toBe(6);
    expect(second.items.map((i) => i.object.name)).toEqual(["c", "d"]);
    const third = await cache.list({ limit: 2, continue: second.continue ?? "" });
    expect(third.items.map((i) => i.object.name)).toEqual(["e"]);
    expect(third.continue).toBeUndefined();
    expect(third.remainingItemCount).toBeUndefined();
  });

  it("omits remainingItemCount with a filter", async () => {
    const { cache, put } = await setup();
    for (const name of ["a", "b", "c"]) await put("ns", name, "web");
    const page = await cache.list({ limit: 1, filter: (o) => o.app === "web" });
    expect(page.continue).toBeDefined();
    expect(page.remainingItemCount).toBeUndefined();
  });

  it("expires a token older than the window with kube's 410 and an inconsistent-continue token", async () => {
    const { cache, put } = await setup();
    for (const name of ["a", "b", "c"]) await put("ns", name);
    const first = await cache.list({ limit: 1 });
    await put("ns", "d");
    clock += 5 * 60_000 + 1;
    await put("ns", "e");
    const error = await rejection(cache.list({ limit: 1, continue: first.continue ?? "" }));
    expect(error).toBeInstanceOf(ContinueExpiredError);
    expect(error.status.code).toBe(410);
    expect(error.status.reason).toBe("Expired");
    expect(error.status.message).toMatch(/^The provided continue parameter is too old to display a consistent list/);
    const token = (error as ContinueExpiredError).continueToken;
    expect(error.status.metadata).toEqual({ continue: token });
    expect(decodeContinue(token, prefix)).toEqual({ startKey: `${prefix}ns/a\u0000`, revision: -1 });
    const rest = await cache.list({ continue: token });
    expect(rest.items.map((i) => i.object.name)).toEqual(["b", "c", "d", "e"]);
    expect(rest.resourceVersion).toBe(6);
  });

  it("refuses a continue with a non-zero resourceVersion and a malformed token", async () => {
    const { cache } = await setup();
    const token = encodeContinue(`${prefix}ns/a\u0000`, prefix, 2);
    const error = await rejection(cache.list({ continue: token, resourceVersion: "2" }));
    expect(error.status.code).toBe(400);
    expect(error.status.message).toBe("specifying resource version is not allowed when using continue");
    const bad = await rejection(cache.list({ continue: encodeContinue(`${prefix}../x`, prefix, 2) }));
    expect(bad.status.message).toBe("invalid continue token: continue key is not valid: ../x");
    const zero = await rejection(cache.list({ continue: "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MCwic3RhcnQiOiJ4In0" }));
    expect(zero.status.message).toBe(
      "invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
    );
  });
});

describe("watch", () => {
  it("delivers every change after a list's revision, none lost", async () => {
    const { cache, put, del } = await setup();
    await put("a", "x");
    const list = await cache.list();
    await put("a", "x", "v2");
    const watch = await cache.watch({ resourceVersion: String(list.resourceVersion) });
    await put("a", "y");
    await del("a", "x");
    expect(await take(watch, 3)).toEqual(["MODIFIED x 3", "ADDED y 4", "DELETED x 5"]);
  });

  it("turns a change that leaves the filter into DELETED and one that enters it into ADDED", async () => {
    const { cache, put } = await setup();
    const watch = await cache.watch({ resourceVersion: "1", filter: (o) => o.app === "web" });
    await put("a", "x", "db"); // 2: no match
    await put("a", "x", "web"); // 3: enters
    await put("a", "x", "web"); // 4: stays
    await put("a", "x", "db"); // 5: leaves
    const events: CacheEvent<Obj>[] = [];
    for (let i = 0; i < 3; i++) events.push((await watch.next()).value as CacheEvent<Obj>);
    expect(events.map((e) => `${e.type} ${e.resourceVersion}`)).toEqual(["ADDED 3", "MODIFIED 4", "DELETED 5"]);
    const deleted = events[2];
    expect(deleted?.type === "DELETED" && deleted.object.object.app).toBe("web");
  });

  it("filters by namespace", async () => {
    const { cache, put } = await setup();
    const watch = await cache.watch({ resourceVersion: "1", namespace: "b" });
    await put("a", "x");
    await put("b", "y");
    expect(await take(watch, 1)).toEqual(["ADDED y 3"]);
  });

  it("sends the initial state then the initial-events-end bookmark", async () => {
    const { cache, put } = await setup();
    await put("a", "x");
    await put("a", "y");
    const watch = await cache.watch({ sendInitialEvents: true, bookmarks: true, resourceVersion: "" });
    await put("a", "z");
    expect(await take(watch, 4)).toEqual(["ADDED x 2", "ADDED y 3", "BOOKMARK 3 end", "ADDED z 4"]);
  });

  it("starts unset and 0 with synthetic ADDED events and no bookmark", async () => {
    const { cache, put } = await setup();
    await put("a", "x");
    const watch = await cache.watch({ resourceVersion: "0", bookmarks: true });
    await put("a", "y");
    expect(await take(watch, 2)).toEqual(["ADDED x 2", "ADDED y 3"]);
  });

  it("sends a bookmark when asked, carrying the cache's revision", async () => {
    const { cache, put, store } = await setup();
    const watch = await cache.watch({ resourceVersion: "1", bookmarks: true });
    await put("a", "x");
    expect(await take(watch, 1)).toEqual(["ADDED x 2"]);
    await store.create("/registry/other/y", bytes({ name: "y" }));
    await cache.list();
    watch.requestBookmark();
    expect(await take(watch, 1)).toEqual(["BOOKMARK 3"]);
  });

  it("refuses a start older than the window with 410 too old resource version", async () => {
    const { cache, put } = await setup();
    for (const name of ["a", "b", "c", "d", "e", "f", "g", "h", "i"]) await put("ns", name); // 2..10
    clock += 5 * 60_000;
    await put("ns", "j"); // 11, evicts 2..10
    const error = await rejection(cache.watch({ resourceVersion: "5" }));
    expect(error.status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "too old resource version: 5 (10)",
      reason: "Expired",
      code: 410,
    });
    expect(await take(await cache.watch({ resourceVersion: "10" }), 1)).toEqual(["ADDED j 11"]);
  });

  it("terminates a watch whose consumer falls a buffer behind", async () => {
    const { cache, put } = await setup({ watchBufferSize: 2 });
    const watch = await cache.watch({ resourceVersion: "1" });
    for (const name of ["a", "b", "c"]) await put("ns", name);
    expect(watch.terminated).toBe(true);
    expect((await watch.next()).done).toBe(true);
  });

  it("ends on abort", async () => {
    const { cache } = await setup();
    const abort = new AbortController();
    const watch = await cache.watch({ resourceVersion: "1", signal: abort.signal });
    const pending = watch.next();
    abort.abort();
    expect((await pending).done).toBe(true);
  });
});
