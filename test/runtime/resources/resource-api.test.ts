import { afterEach, describe, expect, it } from "vitest";
import { kinds } from "../../../generated/registry.js";
import { StatusError } from "../../../runtime/errors/status-error.js";
import { kindReference } from "../../../runtime/registry/kinds.js";
import { byGroupVersionKind } from "../../../runtime/registry/lookup.js";
import type { ResourceKindRecord, ServedKind } from "../../../runtime/registry/served-kind.js";
import { ResourceApi } from "../../../runtime/resources/resource-api.js";
import { MemoryStore } from "../../../runtime/storage/memory-store.js";
import { builtinKinds } from "../builtin-kinds.js";

function kind(group: string, version: string, name: string): ServedKind {
  return kindReference(byGroupVersionKind(kinds, group, version, name) as ResourceKindRecord);
}

const configMaps = kind("", "v1", "ConfigMap");
const deployments = kind("apps", "v1", "Deployment");

function deployment(name: string, replicas = 1): Record<string, unknown> {
  return {
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "c", image: "nginx:1.27" }] } },
    },
    status: { replicas: 99 },
  };
}

async function failure(promise: Promise<unknown>): Promise<StatusError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof StatusError) return error;
    throw error;
  }
  throw new Error("expected a StatusError");
}

let api: ResourceApi;
afterEach(() => api?.close());

function newApi(): ResourceApi {
  api = new ResourceApi({
    kinds: builtinKinds(),
    store: new MemoryStore(),
    now: () => new Date("2026-01-02T03:04:05.678Z"),
  });
  return api;
}

describe("ResourceApi", () => {
  it("creates with server metadata, reads back from the cache, updates and deletes", async () => {
    const api = newApi();
    const target = { kind: configMaps, namespace: "default" };
    const created = await api.create(target, { metadata: { name: "a", uid: "mine" }, data: { k: "v" } });
    const meta = created.metadata as Record<string, unknown>;
    expect(created.apiVersion).toBe("v1");
    expect(created.kind).toBe("ConfigMap");
    expect(meta.namespace).toBe("default");
    expect(meta.uid).not.toBe("mine");
    expect(meta.creationTimestamp).toBe("2026-01-02T03:04:05Z");
    expect(meta.generation).toBeUndefined();
    expect(typeof meta.resourceVersion).toBe("string");

    const read = await api.get({ ...target, name: "a" });
    expect(read.object).toEqual(created);

    const { object: updated } = await api.update({ ...target, name: "a" }, { ...created, data: { k: "w" } });
    expect(Number((updated.metadata as Record<string, string>).resourceVersion)).toBeGreaterThan(
      Number(meta.resourceVersion),
    );

    const stale = await failure(api.update({ ...target, name: "a" }, { ...created, data: { k: "x" } }));
    expect(stale.code).toBe(409);
    expect(stale.message).toBe(
      'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again',
    );

    const deleted = await api.delete({ ...target, name: "a" });
    expect(deleted.deleted).toBe(true);
    const gone = await failure(api.get({ ...target, name: "a" }));
    expect(gone.code).toBe(404);
    expect(gone.message).toBe('configmaps "a" not found');
  });

  it("refuses a duplicate name and a namespace that differs from the request's", async () => {
    const api = newApi();
    const target = { kind: configMaps, namespace: "default" };
    await api.create(target, { metadata: { name: "a" } });
    const exists = await failure(api.create(target, { metadata: { name: "a" } }));
    expect(exists.code).toBe(409);
    expect(exists.message).toBe('configmaps "a" already exists');
    const other = await failure(api.create(target, { metadata: { name: "b", namespace: "other" } }));
    expect(other.code).toBe(400);
    expect(other.message).toBe("the namespace of the provided object does not match the namespace sent on the request");
    const wrongVersion = await failure(api.create(target, { apiVersion: "apps/v1", metadata: { name: "c" } }));
    expect(wrongVersion.message).toBe(
      "the API version in the data (apps/v1) does not match the expected API version (v1)",
    );
  });

  it("generates names from generateName", async () => {
    const api = newApi();
    const created = await api.create({ kind: configMaps, namespace: "default" }, { metadata: { generateName: "cm-" } });
    expect((created.metadata as Record<string, string>).name).toMatch(/^cm-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it("tracks generation and keeps spec and status apart", async () => {
    const api = newApi();
    const target = { kind: deployments, namespace: "default", name: "web" };
    const created = await api.create(target, deployment("web"));
    expect(created.status).toBeUndefined();
    expect((created.metadata as Record<string, unknown>).generation).toBe(1);

    const withStatus = await api.update(
      { ...target, subresource: "status" },
      { ...structuredClone(created), spec: { replicas: 5 }, status: { replicas: 1 } },
    );
    expect(withStatus.object.status).toEqual({ replicas: 1 });
    expect((withStatus.object.spec as Record<string, unknown>).replicas).toBe(1);
    expect((withStatus.object.metadata as Record<string, unknown>).generation).toBe(1);

    const scaled = structuredClone(withStatus.object);
    (scaled.spec as Record<string, unknown>).replicas = 3;
    scaled.status = { replicas: 42 };
    const { object } = await api.update(target, scaled);
    expect((object.metadata as Record<string, unknown>).generation).toBe(2);
    expect(object.status).toEqual({ replicas: 1 });
  });

  it("does not write an update that changes nothing", async () => {
    const api = newApi();
    const target = { kind: configMaps, namespace: "default", name: "a" };
    const created = await api.create(target, { metadata: { name: "a" }, data: { k: "v" } });
    const { object } = await api.update(target, { metadata: { name: "a" }, data: { k: "v" } });
    expect((object.metadata as Record<string, unknown>).resourceVersion).toBe(
      (created.metadata as Record<string, unknown>).resourceVersion,
    );
  });

  it("runs the whole write path on dry run without storing", async () => {
    const api = newApi();
    const target = { kind: configMaps, namespace: "default" };
    const created = await api.create(target, { metadata: { name: "a" } }, { dryRun: true });
    expect((created.metadata as Record<string, unknown>).uid).toBeDefined();
    expect((await failure(api.get({ ...target, name: "a" }))).code).toBe(404);
  });

  it("keeps an object with finalizers until the last one is removed", async () => {
    const api = newApi();
    const target = { kind: configMaps, namespace: "default", name: "a" };
    await api.create(target, { metadata: { name: "a", finalizers: ["example.com/hold"] } });
    const first = await api.delete(target);
    expect(first.deleted).toBe(false);
    const meta = first.object.metadata as Record<string, unknown>;
    expect(meta.deletionTimestamp).toBe("2026-01-02T03:04:05Z");
    expect(meta.deletionGracePeriodSeconds).toBe(0);
    const held = await api.get(target);
    const released = structuredClone(held.object);
    (released.metadata as Record<string, unknown>).finalizers = [];
    await api.update(target, released);
    expect((await failure(api.get(target))).code).toBe(404);
  });

  it("adds the orphan or foreground finalizer the propagation policy asks for", async () => {
    const api = newApi();
    const target = { kind: configMaps, namespace: "default", name: "a" };
    await api.create(target, { metadata: { name: "a" } });
    const orphan = await api.delete(target, { propagationPolicy: "Orphan" });
    expect((orphan.object.metadata as Record<string, unknown>).finalizers).toEqual(["orphan"]);
    const foreground = await api.delete(target, { propagationPolicy: "Foreground" });
    expect((foreground.object.metadata as Record<string, unknown>).finalizers).toEqual(["foregroundDeletion"]);
    const bad = await failure(api.delete(target, { propagationPolicy: "Sideways" }));
    expect(bad.code).toBe(422);
    expect(bad.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
    );
  });

  it("checks delete preconditions", async () => {
    const api = newApi();
    const target = { kind: configMaps, namespace: "default", name: "a" };
    const created = await api.create(target, { metadata: { name: "a" } });
    const uid = (created.metadata as Record<string, string>).uid;
    const error = await failure(api.delete(target, { preconditions: { uid: "other" } }));
    expect(error.code).toBe(409);
    expect(error.message).toBe(
      `Operation cannot be fulfilled on configmaps "a": Precondition failed: UID in precondition: other, UID in object meta: ${uid}`,
    );
  });

  it("lists by namespace and label selector, in pages", async () => {
    const api = newApi();
    for (const [ns, name, tier] of [
      ["a", "x", "web"],
      ["a", "y", "db"],
      ["b", "z", "web"],
    ] as const) {
      await api.create({ kind: configMaps, namespace: ns }, { metadata: { name, labels: { tier } } });
    }
    const names = (r: { items: { object: Record<string, unknown> }[] }) =>
      r.items.map((i) => (i.object.metadata as Record<string, string>).name);
    expect(names(await api.list({ kind: configMaps, namespace: "a" }))).toEqual(["x", "y"]);
    expect(names(await api.list({ kind: configMaps }, { labelSelector: "tier=web" }))).toEqual(["x", "z"]);
    const first = await api.list({ kind: configMaps }, { limit: 2 });
    expect(names(first)).toEqual(["x", "y"]);
    expect(first.remainingItemCount).toBe(1);
    const second = await api.list({ kind: configMaps }, { limit: 2, continue: first.continue as string });
    expect(names(second)).toEqual(["z"]);
    expect(second.resourceVersion).toBe(first.resourceVersion);
    const bad = await failure(api.list({ kind: configMaps }, { fieldSelector: "spec.x=1" }));
    expect(bad.code).toBe(400);
  });

  it("watches changes after a list's resourceVersion", async () => {
    const api = newApi();
    const target = { kind: configMaps, namespace: "default" };
    const listed = await api.list(target);
    const watch = await api.watch(target, { resourceVersion: String(listed.resourceVersion) });
    const created = await api.create(target, { metadata: { name: "a" } });
    await api.update({ ...target, name: "a" }, { ...created, data: { k: "v" } });
    await api.delete({ ...target, name: "a" });
    const types: string[] = [];
    for await (const event of watch) {
      types.push(event.type);
      if (types.length === 3) break;
    }
    expect(types).toEqual(["ADDED", "MODIFIED", "DELETED"]);
  });
});
