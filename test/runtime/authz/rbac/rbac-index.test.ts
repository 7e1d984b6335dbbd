import { describe, expect, it } from "vitest";
import { ObjectTable } from "../../../../runtime/authz/rbac/rbac-index.js";
import type { KubeObject } from "../../../../runtime/strategies/strategy.js";

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
