import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { KubeObject } from "../../../runtime/object/kube-object.js";
import {
  configMapKind,
  eventually,
  find,
  type Harness,
  kind,
  metadata,
  namespaceKind,
  startHarness,
} from "./controller-harness.js";

const replicaSetKind = kind("apps", "v1", "ReplicaSet");
const podKind = kind("", "v1", "Pod");

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(): Promise<Harness> {
  harness = await startHarness({ enabled: { serviceAccounts: false, rootCa: false } });
  return harness;
}

const at = (name: string) => ({ kind: configMapKind, namespace: "default", name });

function ownerRef(owner: KubeObject, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const meta = metadata(owner);
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: meta.name, uid: meta.uid, ...extra };
}

async function configMap(h: Harness, name: string, meta: Record<string, unknown> = {}): Promise<KubeObject> {
  return h.api.create(
    { kind: configMapKind, namespace: "default" },
    { metadata: { name, ...meta }, data: { k: name } },
  );
}

async function removeFinalizers(h: Harness, name: string): Promise<void> {
  const current = structuredClone((await h.api.get(at(name))).object);
  delete metadata(current).finalizers;
  await h.api.update(at(name), current);
}

describe("garbage collector", () => {
  it("deletes the dependents of an owner deleted in the background", async () => {
    const h = await start();
    const owner = await configMap(h, "owner");
    await configMap(h, "a", { ownerReferences: [ownerRef(owner)] });
    await configMap(h, "b", { ownerReferences: [ownerRef(owner, { controller: true })] });
    await configMap(h, "bystander");

    await h.api.delete(at("owner"), { propagationPolicy: "Background" });

    await eventually(async () => {
      expect(await find(h.api, at("a"))).toBeUndefined();
      expect(await find(h.api, at("b"))).toBeUndefined();
    });
    expect(await find(h.api, at("bystander"))).toBeDefined();
  });

  it("holds a foreground owner until its blocking dependents are gone", async () => {
    const h = await start();
    const owner = await configMap(h, "owner");
    await configMap(h, "blocking", {
      ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })],
      finalizers: ["example.com/hold"],
    });
    await configMap(h, "loose", { ownerReferences: [ownerRef(owner)] });

    const { deleted, object } = await h.api.delete(at("owner"), { propagationPolicy: "Foreground" });
    expect(deleted).toBe(false);
    expect(metadata(object).finalizers).toEqual(["foregroundDeletion"]);

    // Every dependent is deleted; the one its finalizer keeps blocks the owner.
    await eventually(async () => {
      expect(await find(h.api, at("loose"))).toBeUndefined();
      expect(metadata(await find(h.api, at("blocking"))).deletionTimestamp).toBeDefined();
    });
    const waiting = await find(h.api, at("owner"));
    expect(metadata(waiting).finalizers).toEqual(["foregroundDeletion"]);

    await removeFinalizers(h, "blocking");
    await eventually(async () => {
      expect(await find(h.api, at("blocking"))).toBeUndefined();
      expect(await find(h.api, at("owner"))).toBeUndefined();
    });
  });

  it("does not wait in the foreground for dependents that do not block", async () => {
    const h = await start();
    const owner = await configMap(h, "owner");
    await configMap(h, "held", { ownerReferences: [ownerRef(owner)], finalizers: ["example.com/hold"] });

    await h.api.delete(at("owner"), { propagationPolicy: "Foreground" });

    await eventually(async () => expect(await find(h.api, at("owner"))).toBeUndefined());
    expect(metadata(await find(h.api, at("held"))).deletionTimestamp).toBeDefined();
    await removeFinalizers(h, "held");
    await eventually(async () => expect(await find(h.api, at("held"))).toBeUndefined());
  });

  it("orphans the dependents of an owner deleted with the Orphan policy", async () => {
    const h = await start();
    const owner = await configMap(h, "owner");
    const other = await configMap(h, "other");
    await configMap(h, "a", { ownerReferences: [ownerRef(owner)] });
    await configMap(h, "b", { ownerReferences: [ownerRef(owner), ownerRef(other)] });

    const { object } = await h.api.delete(at("owner"), { propagationPolicy: "Orphan" });
    expect(metadata(object).finalizers).toEqual(["orphan"]);

    await eventually(async () => expect(await find(h.api, at("owner"))).toBeUndefined());
    expect(metadata(await find(h.api, at("a"))).ownerReferences).toBeUndefined();
    expect(metadata(await find(h.api, at("b"))).ownerReferences).toEqual([ownerRef(other)]);
  });

  it("deletes a dependent whose owner never existed and drops a dangling reference beside a live one", async () => {
    const h = await start();
    const live = await configMap(h, "live");
    const ghost = { apiVersion: "v1", kind: "ConfigMap", name: "ghost", uid: randomUUID() };
    await configMap(h, "orphaned", { ownerReferences: [ghost] });
    await configMap(h, "mixed", { ownerReferences: [ghost, ownerRef(live)] });
    // An owner of the right name but another uid is not the owner.
    await configMap(h, "ghost");

    await eventually(async () => {
      expect(await find(h.api, at("orphaned"))).toBeUndefined();
      expect(metadata(await find(h.api, at("mixed"))).ownerReferences).toEqual([ownerRef(live)]);
    });
    expect(await find(h.api, at("ghost"))).toBeDefined();
  });

  it("treats an owner in another namespace as absent", async () => {
    const h = await start();
    await h.api.create({ kind: namespaceKind }, { metadata: { name: "other" } });
    const elsewhere = await h.api.create({ kind: configMapKind, namespace: "other" }, { metadata: { name: "owner" } });
    await configMap(h, "owner");
    await configMap(h, "crossed", { ownerReferences: [ownerRef(elsewhere)] });

    await eventually(async () => expect(await find(h.api, at("crossed"))).toBeUndefined());
    expect(await find(h.api, { kind: configMapKind, namespace: "other", name: "owner" })).toBeDefined();
  });

  it("leaves dependents of an owner kind the server does not serve", async () => {
    const h = await start();
    const unknown = { apiVersion: "example.com/v1", kind: "Widget", name: "w", uid: randomUUID() };
    await configMap(h, "kept", { ownerReferences: [unknown] });
    const ghost = { apiVersion: "v1", kind: "ConfigMap", name: "ghost", uid: randomUUID() };
    await configMap(h, "marker", { ownerReferences: [ghost] });

    // The collector has handled both once the dangling one is gone.
    await eventually(async () => expect(await find(h.api, at("marker"))).toBeUndefined());
    expect(await find(h.api, at("kept"))).toBeDefined();
  });

  it("resolves owners across kinds: a ReplicaSet's pods go with it", async () => {
    const h = await start();
    const rs = await h.api.create(
      { kind: replicaSetKind, namespace: "default" },
      {
        metadata: { name: "web" },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: "web" } },
          template: {
            metadata: { labels: { app: "web" } },
            spec: { containers: [{ name: "c", image: "nginx:1.27" }] },
          },
        },
      },
    );
    const pod = (name: string) => ({
      metadata: {
        name,
        labels: { app: "web" },
        ownerReferences: [ownerRef(rs, { controller: true, blockOwnerDeletion: true })],
      },
      spec: { containers: [{ name: "c", image: "nginx:1.27" }] },
    });
    await h.api.create({ kind: podKind, namespace: "default" }, pod("web-1"));
    await h.api.create({ kind: podKind, namespace: "default" }, pod("web-2"));

    await h.api.delete(
      { kind: replicaSetKind, namespace: "default", name: "web" },
      { propagationPolicy: "Foreground" },
    );

    await eventually(async () => {
      expect(await find(h.api, { kind: podKind, namespace: "default", name: "web-1" })).toBeUndefined();
      expect(await find(h.api, { kind: podKind, namespace: "default", name: "web-2" })).toBeUndefined();
      expect(await find(h.api, { kind: replicaSetKind, namespace: "default", name: "web" })).toBeUndefined();
    });
    expect(h.errors).toEqual([]);
  });
});
