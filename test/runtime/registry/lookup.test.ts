import { describe, expect, it } from "vitest";
import { kinds } from "../../../generated/registry.js";
import type { KindRecord } from "../../../runtime/registry/kind-record.js";
import { byGroupVersionKind, byGroupVersionResource, byShortName } from "../../../runtime/registry/lookup.js";

function served(group: string, version: string, priority: number): KindRecord {
  return {
    group,
    version,
    kind: "Widget",
    stability: "stable",
    enabledByDefault: true,
    priority: { group: priority, version: 0 },
    resource: {
      plural: "widgets",
      singular: "widget",
      scope: "Cluster",
      nameFormat: "dns-subdomain",
      verbs: ["get"],
      shortNames: ["wd"],
      categories: [],
      subresources: [],
      storageVersion: true,
      virtual: false,
      printerColumns: [],
      selectableFields: [],
    },
  };
}

describe("registry lookups", () => {
  it("finds kinds of the generated table by group/version/kind and by resource", () => {
    const deployment = byGroupVersionKind(kinds, "apps", "v1", "Deployment");
    expect(deployment?.resource?.plural).toBe("deployments");
    expect(deployment?.resource?.scope).toBe("Namespaced");
    expect(deployment?.resource?.subresources.map((s) => s.name)).toContain("scale");
    expect(byGroupVersionResource(kinds, "", "v1", "pods")?.kind).toBe("Pod");
    expect(
      byGroupVersionResource(kinds, "", "v1", "pods")?.resource.subresources.find((s) => s.name === "log")?.hook,
    ).toBe("log");
    expect(byGroupVersionKind(kinds, "apps", "v1", "Nope")).toBeUndefined();
    expect(byGroupVersionResource(kinds, "apps", "v2", "deployments")).toBeUndefined();
  });

  it("resolves short names, preferred group first", () => {
    expect(byShortName(kinds, "deploy").map((k) => `${k.group}/${k.version} ${k.kind}`)).toEqual([
      "apps/v1 Deployment",
    ]);
    expect(byShortName(kinds, "nope")).toEqual([]);
    const table = [served("b.example.com", "v1", 20), served("a.example.com", "v1", 10)];
    expect(byShortName(table, "wd").map((k) => k.group)).toEqual(["a.example.com", "b.example.com"]);
  });
});
