import { describe, expect, it } from "vitest";
import { startServer } from "../../../runtime/index.js";
import { MemoryStore } from "../../../runtime/storage/memory-store.js";
import { CompactedError } from "../../../runtime/storage/storage-errors.js";
import { StoreCompactor } from "../../../runtime/storage/store-compactor.js";

const value = new TextEncoder().encode("{}");

describe("StoreCompactor", () => {
  it("compacts to the revision of the previous tick, keeping one interval of history", async () => {
    const store = new MemoryStore();
    const errors: unknown[] = [];
    const compactor = new StoreCompactor(store, 0, (error) => errors.push(error));
    await store.create("/registry/a/1", value);
    await compactor.tick();
    const first = await store.currentRevision();
    await store.create("/registry/a/2", value);
    // The first tick only remembered its revision: history from before it is still there.
    await (await store.watch("/registry/a/", 1)).return?.();
    await compactor.tick();
    await expect(store.watch("/registry/a/", first - 1)).rejects.toBeInstanceOf(CompactedError);
    await (await store.watch("/registry/a/", first)).return?.();
    // Nothing written since: the next ticks compact to what is already compacted, or nothing, without error.
    await compactor.tick();
    await compactor.tick();
    expect(errors).toEqual([]);
    await compactor.stop();
    await store.close();
  });

  it("runs on the server's interval (--etcd-compaction-interval) and not at all with 0", async () => {
    const compacted = async (intervalMs: number) => {
      const store = new MemoryStore();
      const server = await startServer({ listen: false, controllers: false, store, compactionIntervalMs: intervalMs });
      const cm = (name: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name } });
      await server.request({ method: "POST", path: "/api/v1/namespaces/default/configmaps", body: cm("c-1") });
      let gone = false;
      for (let i = 0; i < 40 && !gone; i++) {
        await server.request({ method: "POST", path: "/api/v1/namespaces/default/configmaps", body: cm(`c-${i + 2}`) });
        await new Promise((resolve) => setTimeout(resolve, 50));
        gone = await store.watch("/registry/", 1).then(
          async (events) => {
            await events.return?.();
            return false;
          },
          (error) => error instanceof CompactedError,
        );
      }
      await server.close();
      return gone;
    };
    expect(await compacted(20)).toBe(true);
    expect(await compacted(0)).toBe(false);
  });
});
