import { afterEach, describe, expect, it } from "vitest";
import {
  configMapKind,
  eventually,
  failure,
  find,
  type Harness,
  kind,
  metadata,
  namespaceKind,
  startHarness,
} from "./controller-harness.js";

const secretKind = kind("", "v1", "Secret");
const roleKind = kind("rbac.authorization.k8s.io", "v1", "Role");

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const ns = (name: string) => ({ kind: namespaceKind, name });

async function createNamespace(h: Harness, name: string): Promise<void> {
  await h.api.create({ kind: namespaceKind }, { metadata: { name } });
}

describe("namespace controller", () => {
  it("deletes a namespace's content, then finalizes and removes the namespace", async () => {
    harness = await startHarness();
    const h = harness;
    await createNamespace(h, "team");
    const created = await find(h.api, ns("team"));
    expect(created?.spec).toEqual({ finalizers: ["kubernetes"] });
    expect(created?.status).toEqual({ phase: "Active" });
    await h.api.create(
      { kind: configMapKind, namespace: "team" },
      { metadata: { name: "settings" }, data: { a: "1" } },
    );
    await h.api.create({ kind: secretKind, namespace: "team" }, { metadata: { name: "token" }, data: {} });
    await h.api.create({ kind: roleKind, namespace: "team" }, { metadata: { name: "reader" }, rules: [] });
    await h.api.create({ kind: configMapKind, namespace: "default" }, { metadata: { name: "elsewhere" } });

    const { deleted, object } = await h.api.delete(ns("team"));
    expect(deleted).toBe(false);
    expect(metadata(object).deletionTimestamp).toBeDefined();
    expect(object.status).toMatchObject({ phase: "Terminating" });

    const refused = await failure(
      h.api.create({ kind: configMapKind, namespace: "team" }, { metadata: { name: "late" } }),
    );
    expect(refused.status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        'configmaps "late" is forbidden: unable to create new content in namespace team because it is being terminated',
      reason: "Forbidden",
      details: {
        name: "late",
        kind: "configmaps",
        causes: [
          {
            reason: "NamespaceTerminating",
            message: "namespace team is being terminated",
            field: "metadata.namespace",
          },
        ],
      },
      code: 403,
    });

    await eventually(async () => expect(await find(h.api, ns("team"))).toBeUndefined());
    expect((await h.api.list({ kind: configMapKind, namespace: "team" })).items).toEqual([]);
    expect((await h.api.list({ kind: secretKind, namespace: "team" })).items).toEqual([]);
    expect((await h.api.list({ kind: roleKind, namespace: "team" })).items).toEqual([]);
    expect(await find(h.api, { kind: configMapKind, namespace: "default", name: "elsewhere" })).toBeDefined();

    const missing = await failure(
      h.api.create({ kind: configMapKind, namespace: "team" }, { metadata: { name: "x" } }),
    );
    expect(missing.code).toBe(404);
    expect(missing.message).toBe('namespaces "team" not found');
  });

  it("waits for content held by finalizers and says so in the namespace's conditions", async () => {
    harness = await startHarness();
    const h = harness;
    await createNamespace(h, "held");
    await h.api.create(
      { kind: configMapKind, namespace: "held" },
      { metadata: { name: "kept", finalizers: ["example.com/hold"] } },
    );

    await h.api.delete(ns("held"));

    const conditions = await eventually(async () => {
      const found = (await find(h.api, ns("held")))?.status as { conditions?: Record<string, string>[] };
      const byType = new Map((found.conditions ?? []).map((c) => [c.type, c]));
      expect(byType.get("NamespaceContentRemaining")).toMatchObject({
        status: "True",
        reason: "SomeResourcesRemain",
        message: "Some resources are remaining: configmaps. has 1 resource instances",
      });
      return byType;
    });
    expect(conditions.get("NamespaceFinalizersRemaining")).toMatchObject({
      status: "True",
      reason: "SomeFinalizersRemain",
      message: "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances",
    });
    expect(conditions.get("NamespaceDeletionContentFailure")).toMatchObject({
      status: "False",
      reason: "ContentDeleted",
      message: "All content successfully deleted, may be waiting on finalization",
    });
    expect((await find(h.api, ns("held")))?.spec).toEqual({ finalizers: ["kubernetes"] });

    const kept = structuredClone((await h.api.get({ kind: configMapKind, namespace: "held", name: "kept" })).object);
    delete metadata(kept).finalizers;
    await h.api.update({ kind: configMapKind, namespace: "held", name: "kept" }, kept);

    await eventually(async () => expect(await find(h.api, ns("held"))).toBeUndefined());
  });

  it("refuses to delete the immortal namespaces and recreates kube-node-lease", async () => {
    harness = await startHarness();
    const h = harness;
    for (const name of ["default", "kube-system", "kube-public"]) {
      const refused = await failure(h.api.delete(ns(name)));
      expect(refused.code).toBe(403);
      expect(refused.message).toBe(`namespaces "${name}" is forbidden: this namespace may not be deleted`);
    }
    const lease = await find(h.api, ns("kube-node-lease"));
    // kube-apiserver writes them itself, so its managedFields name it (recorded from the reference).
    const managers = (metadata(lease).managedFields as { manager: string; operation: string }[]).map((m) => [
      m.manager,
      m.operation,
    ]);
    expect(managers).toEqual([["kube-apiserver", "Update"]]);
    await h.api.delete(ns("kube-node-lease"));
    await eventually(async () => {
      const again = await find(h.api, ns("kube-node-lease"));
      expect(metadata(again).uid).toBeDefined();
      expect(metadata(again).uid).not.toBe(metadata(lease).uid);
    });
  });

  it("refuses namespaced creates into a namespace that does not exist", async () => {
    harness = await startHarness({ enabled: { namespaces: false, garbageCollector: false } });
    const refused = await failure(
      harness.api.create({ kind: configMapKind, namespace: "nowhere" }, { metadata: { name: "a" } }),
    );
    expect(refused.status).toMatchObject({
      message: 'namespaces "nowhere" not found',
      reason: "NotFound",
      details: { name: "nowhere", kind: "namespaces" },
      code: 404,
    });
  });
});
