import { afterAll, describe, expect, it } from "vitest";
import type { ConfigMap } from "../../generated/core/v1/types.js";
import { type Informer, type InformerHandlers, objectKey } from "../../sdk/index.js";
import { eventually, serverPerFile, sleep } from "./client-fixture.js";

const windowMs = 300;
// A short watch history window lets a test expire the informer's resume point.
const kapi = serverPerFile({ watchHistoryWindowMs: windowMs });

/** Handlers recording every call as "add a", "update a 1->2", "delete a" (names and data.v). */
function recorder(): { calls: string[]; errors: unknown[]; handlers: InformerHandlers<ConfigMap> } {
  const calls: string[] = [];
  const errors: unknown[] = [];
  const v = (c: ConfigMap) => c.data?.v ?? "-";
  return {
    calls,
    errors,
    handlers: {
      onAdd: (c) => calls.push(`add ${c.metadata?.name}`),
      onUpdate: (o, n) => calls.push(`update ${n.metadata?.name} ${v(o)}->${v(n)}`),
      onDelete: (c) => calls.push(`delete ${c.metadata?.name}`),
      onError: (error) => errors.push(error),
    },
  };
}

const informers: Informer<ConfigMap>[] = [];
afterAll(() => {
  for (const informer of informers) informer.stop();
});

describe("Informer", () => {
  it("lists, then delivers adds, updates and deletes and keeps its cache", async () => {
    const namespace = await kapi().namespace("inform");
    const { configMaps } = kapi();
    await configMaps.create({ metadata: { name: "a" }, data: { v: "1" } }, { namespace });
    await configMaps.create({ metadata: { name: "b" }, data: { v: "1" } }, { namespace });
    const { calls, handlers } = recorder();
    const informer = configMaps.informer({ namespace, pageSize: 1 }).addHandlers(handlers);
    informers.push(informer);
    expect(informer.hasSynced).toBe(false);
    await informer.start();
    expect(informer.hasSynced).toBe(true);
    expect(calls).toEqual(["add a", "add b"]);
    expect(informer.list().map(objectKey).sort()).toEqual([`${namespace}/a`, `${namespace}/b`]);

    const a = await configMaps.get("a", { namespace });
    await configMaps.update({ ...a, data: { v: "2" } }, { namespace });
    await configMaps.delete("b", { namespace });
    await configMaps.create({ metadata: { name: "c" } }, { namespace });
    // Sorted: should the watch fall out of the short history window, a relist delivers the same calls.
    await eventually(() => expect(calls.slice(2).sort()).toEqual(["add c", "delete b", "update a 1->2"]));
    expect(informer.get("a", namespace)?.data).toEqual({ v: "2" });
    expect(informer.get("b", namespace)).toBeUndefined();

    const late = recorder();
    informer.addHandlers(late.handlers);
    expect(late.calls.sort()).toEqual(["add a", "add c"]);
    informer.stop();
    await configMaps.create({ metadata: { name: "after-stop" } }, { namespace });
    await sleep(200);
    expect(calls).not.toContain("add after-stop");
  });

  it("informs on a label selector and resyncs the cache periodically", async () => {
    const namespace = await kapi().namespace("resync");
    const { configMaps } = kapi();
    await configMaps.create({ metadata: { name: "in", labels: { keep: "yes" } }, data: { v: "1" } }, { namespace });
    await configMaps.create({ metadata: { name: "out" } }, { namespace });
    const { calls, handlers } = recorder();
    const informer = configMaps.informer({ namespace, labelSelector: "keep=yes", resyncPeriodMs: 100 });
    informers.push(informer);
    await informer.addHandlers(handlers).start();
    await eventually(() => expect(calls.filter((c) => c === "update in 1->1").length).toBeGreaterThanOrEqual(2));
    expect(calls[0]).toBe("add in");
    expect(calls.some((c) => c.includes("out"))).toBe(false);
    informer.stop();
  });

  it("resumes after a dropped connection without redelivering what it saw", async () => {
    const namespace = await kapi().namespace("drop");
    const { configMaps, proxy } = await kapi().proxied();
    await kapi().configMaps.create({ metadata: { name: "a" }, data: { v: "1" } }, { namespace });
    const { calls, handlers } = recorder();
    const informer = configMaps.informer({ namespace, retryDelayMs: 50 }).addHandlers(handlers);
    informers.push(informer);
    await informer.start();
    await eventually(() => expect(proxy.connections).toBe(1));

    proxy.drop();
    await kapi().configMaps.create({ metadata: { name: "b" } }, { namespace });
    await eventually(() => expect(calls).toEqual(["add a", "add b"]));
    expect(proxy.connections).toBe(1);
    informer.stop();
  });

  it("relists after a forced 410 and delivers the difference from its cache", async () => {
    const namespace = await kapi().namespace("expire");
    const { configMaps, proxy } = await kapi().proxied();
    for (const name of ["keep", "change", "remove"]) {
      await kapi().configMaps.create({ metadata: { name }, data: { v: "1" } }, { namespace });
    }
    const { calls, errors, handlers } = recorder();
    const informer = configMaps.informer({ namespace, retryDelayMs: 50 }).addHandlers(handlers);
    informers.push(informer);
    await informer.start();
    const before = informer.lastSyncResourceVersion;
    expect(calls.sort()).toEqual(["add change", "add keep", "add remove"]);
    calls.length = 0;

    // Cut the informer off while changes happen, until they have left the history window.
    proxy.block();
    proxy.drop();
    const changed = await kapi().configMaps.get("change", { namespace });
    await kapi().configMaps.update({ ...changed, data: { v: "2" } }, { namespace });
    await kapi().configMaps.delete("remove", { namespace });
    await kapi().configMaps.create({ metadata: { name: "new" }, data: { v: "1" } }, { namespace });
    await sleep(windowMs * 2);
    // The informer's resume point is gone: only a relist can bring it up to date.
    const expired = kapi().configMaps.watch({ namespace, resourceVersion: before, onExpired: "error" });
    await expect(
      (async () => {
        for await (const _ of expired) break;
      })(),
    ).rejects.toMatchObject({ code: 410 });
    proxy.block(false);

    await eventually(() => expect(calls.sort()).toEqual(["add new", "delete remove", "update change 1->2"]));
    expect(Number(informer.lastSyncResourceVersion)).toBeGreaterThan(Number(before));
    expect(
      informer
        .list()
        .map((c) => c.metadata?.name)
        .sort(),
    ).toEqual(["change", "keep", "new"]);
    expect(errors).toEqual([]);

    // It goes on watching from the relisted state.
    await kapi().configMaps.delete("keep", { namespace });
    await eventually(() => expect(calls).toContain("delete keep"));
    informer.stop();
  });

  it("rejects start() when the first list fails", async () => {
    const informer = kapi().configMaps.informer({ namespace: "default", labelSelector: "=bad" });
    await expect(informer.start()).rejects.toMatchObject({ code: 400, reason: "BadRequest" });
    expect(informer.hasSynced).toBe(false);
  });
});
