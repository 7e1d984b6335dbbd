// A watch's undelivered events are bounded in count and in bytes, and however a watch ends, it says so on
// `ended` and leaves the registered-watchers gauge.
import { afterEach, describe, expect, it } from "vitest";
import { MemoryStore } from "../../../runtime/storage/memory-store.js";
import { registeredWatchers } from "../../../runtime/watch-cache/registered-watchers.js";
import { WatchCache } from "../../../runtime/watch-cache/watch-cache.js";

const prefix = "/registry/things/";
const text = new TextEncoder();
let open: WatchCache<string>[] = [];

async function setup(options: { watchBufferSize?: number; watchBufferBytes?: number } = {}) {
  const store = new MemoryStore();
  const cache = await WatchCache.open<string>({
    store,
    prefix,
    decode: (kv) => new TextDecoder().decode(kv.value),
    ...options,
  });
  open.push(cache);
  /** Creates `ns/name` holding `size` bytes, and waits until the cache has it. */
  const put = async (name: string, size: number) => {
    const key = `${prefix}ns/${name}`;
    const created = await store.create(key, text.encode("x".repeat(size)));
    await cache.get(key, { resourceVersion: String(created.modRevision) });
  };
  return { cache, put };
}

afterEach(() => {
  for (const cache of open) cache.close();
  open = [];
});

describe("releasing watches", () => {
  it("terminates a watch whose undelivered events hold more than the byte budget", async () => {
    const { cache, put } = await setup({ watchBufferBytes: 1000 });
    const watch = await cache.watch({ resourceVersion: "1" });
    await put("a", 600);
    await put("b", 600);
    expect(watch.terminated).toBe(false);
    await put("c", 10);
    expect(watch.terminated).toBe(true);
    expect(watch.ended.aborted).toBe(true);
  });

  it("counts delivered events out of the byte budget", async () => {
    const { cache, put } = await setup({ watchBufferBytes: 1000 });
    const watch = await cache.watch({ resourceVersion: "1" });
    for (let i = 0; i < 10; i++) {
      await put(`n${i}`, 600);
      expect((await watch.next()).done).toBe(false);
    }
    expect(watch.terminated).toBe(false);
  });

  it("signals the end of a watch stopped, terminated or closed with its cache", async () => {
    const before = registeredWatchers();
    const { cache, put } = await setup({ watchBufferSize: 1 });
    const stopped = await cache.watch({ resourceVersion: "1" });
    const terminated = await cache.watch({ resourceVersion: "1" });
    const closed = await cache.watch({ namespace: "other", resourceVersion: "1" });
    expect(registeredWatchers()).toBe(before + 3);
    stopped.stop();
    expect(stopped.ended.aborted).toBe(true);
    expect(registeredWatchers()).toBe(before + 2);
    await put("a", 1);
    await put("b", 1);
    expect(terminated.ended.aborted).toBe(true);
    expect(registeredWatchers()).toBe(before + 1);
    cache.close();
    expect(closed.ended.aborted).toBe(true);
    expect(registeredWatchers()).toBe(before);
  });
});
