import { describe, expect, it } from "vitest";
import { clusterRoleKind, ObjectTable, RbacIndex } from "../../../../runtime/authz/rbac/rbac-index.js";
import type { KubeObject } from "../../../../runtime/object/kube-object.js";
import { ResourceApi } from "../../../../runtime/resources/resource-api.js";
import { MemoryStore } from "../../../../runtime/storage/memory-store.js";
import { builtinKinds } from "../../builtin-kinds.js";

function at(name: string, revision: number, namespace?: string): KubeObject {
  return { metadata: { name, resourceVersion: String(revision), ...(namespace ? { namespace } : {}) } };
}

const names = (table: ObjectTable, namespace = "") =>
  [...table.inNamespace(namespace)].map(
    (o) => `${(o.metadata as { name: string }).name}@${(o.metadata as { resourceVersion: string }).resourceVersion}`,
  );

describe("the RBAC index's table", () => {
  it("keeps the newest state of each object, whichever arrives first", () => {
    const table = new ObjectTable();
    table.put(at("a", 5));
    table.put(at("a", 3));
    expect(names(table)).toEqual(["a@5"]);
    table.remove(at("a", 4));
    expect(names(table)).toEqual(["a@5"]);
    table.remove(at("a", 5));
    expect(table.get("", "a")).toBeUndefined();
    table.put(at("a", 5));
    expect(table.get("", "a")).toBeUndefined();
    table.put(at("a", 9));
    expect(names(table)).toEqual(["a@9"]);
  });

  it("keeps namespaces apart", () => {
    const table = new ObjectTable();
    table.put(at("a", 1, "ns1"));
    table.put(at("a", 2, "ns2"));
    expect(names(table, "ns1")).toEqual(["a@1"]);
    expect(table.get("ns2", "a")).toEqual(at("a", 2, "ns2"));
    expect(names(table)).toEqual([]);
  });

  it("drops on relist what the list lacks, unless it is newer than the list", () => {
    const table = new ObjectTable();
    table.put(at("missed-delete", 2));
    table.put(at("created-after", 12));
    table.put(at("kept", 3));
    table.relisted([at("kept", 3), at("listed", 8)], 10);
    expect(names(table).sort()).toEqual(["created-after@12", "kept@3", "listed@8"]);
  });

  it("does not bring back on relist what was deleted after the list was taken", () => {
    const table = new ObjectTable();
    table.put(at("a", 4));
    table.remove(at("a", 4));
    table.relisted([at("a", 4)], 6);
    expect(table.get("", "a")).toBeUndefined();
  });
});

describe("the RBAC index's synced()", () => {
  const role = (name: string): KubeObject => ({
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRole",
    metadata: { name },
  });

  it("resolves once objects written just before are in, by their revision or by a consistent list", async () => {
    const store = new MemoryStore();
    const api = new ResourceApi({ kinds: builtinKinds(), store });
    const index = new RbacIndex(api);
    const abort = new AbortController();
    const running = index.run({ signal: abort.signal, log: () => {} });
    try {
      await index.ready;
      const written = await api.create({ kind: clusterRoleKind }, role("by-revision"));
      const revision = Number((written.metadata as { resourceVersion: string }).resourceVersion);
      await index.synced(new Map([[clusterRoleKind, revision]]));
      expect(index.clusterRole("by-revision")).toBeDefined();
      await api.create({ kind: clusterRoleKind }, role("by-list"));
      await index.synced();
      expect(index.clusterRole("by-list")).toBeDefined();
    } finally {
      abort.abort();
      await running;
      api.close();
      await store.close();
    }
  });
});
