import { describe, expect, it } from "vitest";
import type { Deployment } from "../../generated/apps/v1/types.js";
import type { ConfigMap } from "../../generated/core/v1/types.js";
import { ApiError, type WatchEvent } from "../../sdk/index.js";
import { eventually, rejection, serverPerFile } from "./client-fixture.js";

const kapi = serverPerFile();

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await rejection(promise);
  if (error instanceof ApiError) return error;
  throw error;
}

/** Collects a watch's events into an array while it runs. */
function collect<T>(events: AsyncIterable<WatchEvent<T>>): { seen: WatchEvent<T>[]; done: Promise<void> } {
  const seen: WatchEvent<T>[] = [];
  const done = (async () => {
    for await (const event of events) seen.push(event);
  })();
  return { seen, done };
}

/** The events but bookmarks, as "TYPE name". */
const names = (events: WatchEvent<ConfigMap>[]) =>
  events
    .filter((e) => e.type !== "BOOKMARK")
    .map((e) => (e.type === "RELISTED" ? `RELISTED ${e.items.length}` : `${e.type} ${e.object.metadata?.name}`));

describe("ResourceClient on configmaps", () => {
  it("creates, gets, lists, updates and deletes", async () => {
    const namespace = await kapi().namespace("verbs");
    const { configMaps } = kapi();
    const created = await configMaps.create(
      { metadata: { name: "a", labels: { app: "x" } }, data: { k: "1" } },
      { namespace },
    );
    expect(created).toMatchObject({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", namespace } });
    await configMaps.create({ metadata: { name: "b" } }, { namespace });
    expect((await configMaps.get("a", { namespace })).data).toEqual({ k: "1" });

    const labelled = await configMaps.list({ namespace, labelSelector: "app=x" });
    expect(labelled.items.map((c) => c.metadata?.name)).toEqual(["a"]);
    const byField = await configMaps.list({ namespace, fieldSelector: "metadata.name=b" });
    expect(byField.items.map((c) => c.metadata?.name)).toEqual(["b"]);

    const updated = await configMaps.update({ ...created, data: { k: "2" } }, { namespace });
    expect(updated.data).toEqual({ k: "2" });
    const stale = await failure(configMaps.update({ ...created, data: { k: "3" } }, { namespace }));
    expect(stale).toMatchObject({ code: 409, reason: "Conflict" });
    expect(stale.message).toContain("the object has been modified");

    const missing = await failure(configMaps.get("nope", { namespace }));
    expect(missing).toMatchObject({ code: 404, reason: "NotFound", message: 'configmaps "nope" not found' });
    expect(missing.details).toMatchObject({ name: "nope", kind: "configmaps" });

    const dryRun = await configMaps.create({ metadata: { name: "dry" } }, { namespace, dryRun: "All" });
    expect(dryRun.metadata?.name).toBe("dry");
    expect((await failure(configMaps.get("dry", { namespace }))).code).toBe(404);

    const deleted = await configMaps.delete("a", { namespace, gracePeriodSeconds: 0, propagationPolicy: "Background" });
    expect(deleted).toMatchObject({ kind: "Status", status: "Success", details: { name: "a" } });
    expect((await failure(configMaps.get("a", { namespace }))).code).toBe(404);
  });

  it("honours delete preconditions", async () => {
    const namespace = await kapi().namespace("preconditions");
    const { configMaps } = kapi();
    const created = await configMaps.create({ metadata: { name: "p" } }, { namespace });
    const conflict = await failure(
      configMaps.delete("p", { namespace, preconditions: { uid: "00000000-0000-0000-0000-000000000000" } }),
    );
    expect(conflict).toMatchObject({ code: 409, reason: "Conflict" });
    expect(conflict.message).toContain("Precondition failed: UID in precondition");
    await configMaps.delete("p", { namespace, preconditions: { uid: created.metadata?.uid as string } });
    expect((await configMaps.list({ namespace })).items).toEqual([]);
  });

  it("deletes a collection by label", async () => {
    const namespace = await kapi().namespace("collection");
    const { configMaps } = kapi();
    for (const [name, tier] of [
      ["x1", "x"],
      ["x2", "x"],
      ["y1", "y"],
    ]) {
      await configMaps.create({ metadata: { name: name as string, labels: { tier: tier as string } } }, { namespace });
    }
    const deleted = await configMaps.deleteCollection({ namespace, labelSelector: "tier=x" });
    expect(deleted.items.map((c) => c.metadata?.name).sort()).toEqual(["x1", "x2"]);
    expect((await configMaps.list({ namespace })).items.map((c) => c.metadata?.name)).toEqual(["y1"]);
  });

  it("patches with each patch type and its content type", async () => {
    const namespace = await kapi().namespace("patch");
    const { configMaps } = kapi();
    await configMaps.create({ metadata: { name: "p" }, data: { a: "1", b: "2" } }, { namespace });
    const json = await configMaps.patch("p", [{ op: "replace", path: "/data/a", value: "10" }], "json", { namespace });
    expect(json.data).toEqual({ a: "10", b: "2" });
    const merge = await configMaps.patch("p", { data: { b: null, c: "3" } }, "merge", { namespace });
    expect(merge.data).toEqual({ a: "10", c: "3" });
    const strategic = await configMaps.patch("p", { metadata: { labels: { s: "1" } } }, "strategic", { namespace });
    expect(strategic.metadata?.labels).toEqual({ s: "1" });
    const apply = await configMaps.patch(
      "p",
      { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "p" }, data: { d: "4" } },
      "apply",
      { namespace, fieldManager: "tester", force: true },
    );
    expect(apply.data).toMatchObject({ d: "4" });
    expect(apply.metadata).not.toHaveProperty("managedFields", undefined);
    const bad = await failure(configMaps.patch("p", { data: "x" }, "json", { namespace }));
    expect(bad.code).toBe(400);
  });

  it("applies server-side with field managers, conflicts, force and strict field validation", async () => {
    const namespace = await kapi().namespace("apply");
    const { configMaps } = kapi();
    const first = await configMaps.apply(
      { metadata: { name: "s" }, data: { owner: "one" } },
      { namespace, fieldManager: "one" },
    );
    expect(first.metadata?.managedFields?.map((f) => [f.manager, f.operation])).toEqual([["one", "Apply"]]);
    const conflict = await failure(
      configMaps.apply({ metadata: { name: "s" }, data: { owner: "two" } }, { namespace, fieldManager: "two" }),
    );
    expect(conflict).toMatchObject({ code: 409, reason: "Conflict" });
    expect(conflict.message).toContain('conflict with "one"');
    const forced = await configMaps.apply(
      { metadata: { name: "s" }, data: { owner: "two" } },
      { namespace, fieldManager: "two", force: true },
    );
    expect(forced.data).toEqual({ owner: "two" });

    const strict = await failure(
      configMaps.create({ metadata: { name: "u" }, extra: 1 } as ConfigMap, { namespace, fieldValidation: "Strict" }),
    );
    expect(strict).toMatchObject({ code: 400, reason: "BadRequest" });
    expect(strict.message).toContain('unknown field "extra"');
  });

  it("lists every item across pages", async () => {
    const namespace = await kapi().namespace("paging");
    const { configMaps } = kapi();
    for (let i = 0; i < 7; i++) await configMaps.create({ metadata: { name: `c${i}` } }, { namespace });
    const page = await configMaps.list({ namespace, limit: 3 });
    expect(page.items).toHaveLength(3);
    expect(page.metadata?.continue).toBeTruthy();
    const next = await configMaps.list({ namespace, limit: 3, continue: page.metadata?.continue as string });
    expect(next.items.map((c) => c.metadata?.name)).toEqual(["c3", "c4", "c5"]);

    const all: string[] = [];
    for await (const item of configMaps.listAll({ namespace, limit: 2 })) all.push(item.metadata?.name as string);
    expect(all).toEqual(["c0", "c1", "c2", "c3", "c4", "c5", "c6"]);
  });
});

describe("ResourceClient on deployments", () => {
  const deployment = (name: string, image: string) => ({
    metadata: { name, labels: { app: name } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "main", image }] } },
    },
  });

  const withReplicas = (d: Deployment, replicas: number): Deployment => ({
    ...d,
    spec: { ...(d.spec as NonNullable<Deployment["spec"]>), replicas },
  });

  it("runs every verb", async () => {
    const namespace = await kapi().namespace("deploy");
    const { deployments } = kapi();
    const created = await deployments.create(deployment("web", "nginx:1"), { namespace });
    expect(created).toMatchObject({ apiVersion: "apps/v1", kind: "Deployment", metadata: { generation: 1 } });
    expect((await deployments.get("web", { namespace })).spec?.template.spec?.containers[0]?.image).toBe("nginx:1");

    const fetched = await deployments.get("web", { namespace });
    const updated = await deployments.update(withReplicas(fetched, 2), { namespace });
    expect(updated.spec?.replicas).toBe(2);

    const withStatus = await deployments.get("web", { namespace });
    const status = await deployments.updateStatus(
      { ...withReplicas(withStatus, 5), status: { observedGeneration: 42, replicas: 7 } },
      { namespace },
    );
    expect(status.status).toMatchObject({ observedGeneration: 42 });
    expect(status.spec?.replicas).toBe(2);

    const strategic = await deployments.patch(
      "web",
      { spec: { template: { spec: { containers: [{ name: "sidecar", image: "busybox" }] } } } },
      "strategic",
      { namespace },
    );
    expect(strategic.spec?.template.spec?.containers.map((c) => c.name).sort()).toEqual(["main", "sidecar"]);
    const merge = await deployments.patch("web", { spec: { replicas: 3 } }, "merge", { namespace });
    expect(merge.spec?.replicas).toBe(3);
    const json = await deployments.patch("web", [{ op: "replace", path: "/spec/replicas", value: 4 }], "json", {
      namespace,
    });
    expect(json.spec?.replicas).toBe(4);
    const scaled = await deployments.patch("web", { status: { replicas: 9 } }, "merge", {
      namespace,
      subresource: "status",
    });
    expect(scaled.status?.replicas).toBe(9);

    const applied = await deployments.apply(deployment("api", "nginx:2"), { namespace, fieldManager: "ci" });
    expect(applied.metadata?.managedFields?.[0]?.manager).toBe("ci");
    const listed = await deployments.list({ namespace });
    expect(listed.items.map((d) => d.metadata?.name).sort()).toEqual(["api", "web"]);

    const foreground = await deployments.delete("web", { namespace, propagationPolicy: "Foreground" });
    expect(foreground).toMatchObject({ metadata: { finalizers: ["foregroundDeletion"] } });
    await eventually(async () => expect((await failure(deployments.get("web", { namespace }))).code).toBe(404));

    const remaining = await deployments.deleteCollection({ namespace });
    expect(remaining.items.map((d) => d.metadata?.name)).toEqual(["api"]);
  });
});

describe("ResourceClient.watch", () => {
  it("streams events from a resourceVersion and stops when its signal aborts", async () => {
    const namespace = await kapi().namespace("watch");
    const { configMaps } = kapi();
    const from = (await configMaps.list({ namespace })).metadata?.resourceVersion as string;
    const abort = new AbortController();
    const { seen, done } = collect(configMaps.watch({ namespace, resourceVersion: from, signal: abort.signal }));
    const created = await configMaps.create({ metadata: { name: "w" } }, { namespace });
    await configMaps.update({ ...created, data: { k: "v" } }, { namespace });
    await configMaps.delete("w", { namespace });
    await eventually(() => expect(names(seen)).toEqual(["ADDED w", "MODIFIED w", "DELETED w"]));
    abort.abort();
    await done;
  });

  it("sends the current objects first without a resourceVersion and filters by label", async () => {
    const namespace = await kapi().namespace("watch-initial");
    const { configMaps } = kapi();
    await configMaps.create({ metadata: { name: "old", labels: { w: "1" } } }, { namespace });
    await configMaps.create({ metadata: { name: "other" } }, { namespace });
    const abort = new AbortController();
    const { seen, done } = collect(configMaps.watch({ namespace, labelSelector: "w=1", signal: abort.signal }));
    await eventually(() => expect(names(seen)).toEqual(["ADDED old"]));
    await configMaps.create({ metadata: { name: "new", labels: { w: "1" } } }, { namespace });
    await eventually(() => expect(names(seen)).toEqual(["ADDED old", "ADDED new"]));
    abort.abort();
    await done;
  });

  it("resumes from the last resourceVersion after the connection drops", async () => {
    const namespace = await kapi().namespace("watch-drop");
    const { configMaps, proxy } = await kapi().proxied();
    const abort = new AbortController();
    const { seen, done } = collect(
      configMaps.watch({ namespace, resourceVersion: "", retryDelayMs: 50, signal: abort.signal }),
    );
    await kapi().configMaps.create({ metadata: { name: "before" } }, { namespace });
    await eventually(() => expect(names(seen)).toEqual(["ADDED before"]));

    proxy.block();
    proxy.drop();
    await kapi().configMaps.create({ metadata: { name: "during" } }, { namespace });
    proxy.block(false);
    await kapi().configMaps.create({ metadata: { name: "after" } }, { namespace });
    await eventually(() => expect(names(seen)).toEqual(["ADDED before", "ADDED during", "ADDED after"]));
    abort.abort();
    await done;
  });

  it("rejects a watch that fails for good", async () => {
    const forbidden = kapi().configMaps.watch({ namespace: "default", labelSelector: "=bad=" });
    const error = await failure(
      (async () => {
        for await (const _ of forbidden) break;
      })(),
    );
    expect(error.code).toBe(400);
  });
});
