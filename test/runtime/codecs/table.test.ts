import { describe, expect, it } from "vitest";
import { printerCells } from "../../../generated/printers.js";
import { kinds } from "../../../generated/registry.js";
import { parseJsonPath } from "../../../runtime/codecs/json-path.js";
import { humanDuration, parseRfc3339, toTable } from "../../../runtime/codecs/table.js";
import { builtinSchema, builtinVersionsOf } from "../../../runtime/registry/builtin-schema.js";
import type { PrinterColumn, ResourceRecord } from "../../../runtime/registry/kind-record.js";
import { kindReference } from "../../../runtime/registry/kinds.js";
import { byGroupVersionResource } from "../../../runtime/registry/lookup.js";
import type { ServedKind } from "../../../runtime/registry/served-kind.js";

function servedKind(printerColumns: PrinterColumn[]): ServedKind {
  const resource: ResourceRecord = {
    plural: "widgets",
    singular: "widget",
    scope: "Namespaced",
    nameFormat: "dns-subdomain",
    verbs: ["get", "list"],
    shortNames: [],
    categories: [],
    subresources: [],
    storageVersion: true,
    virtual: false,
    printerColumns,
    selectableFields: [],
  };
  return {
    group: "example.io",
    version: "v1",
    kind: "Widget",
    stability: "stable",
    enabledByDefault: true,
    resource,
    schema: builtinSchema({ group: "example.io", version: "v1", kind: "Widget" }),
    versions: builtinVersionsOf("example.io"),
  };
}

const NOW = Date.parse("2024-03-01T12:00:00Z");

function widget(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: "example.io/v1",
    kind: "Widget",
    metadata: { name, namespace: "ns", resourceVersion: "7", creationTimestamp: "2024-03-01T11:55:00Z" },
    ...extra,
  };
}

const columns: PrinterColumn[] = [
  { name: "Phase", type: "string", jsonPath: ".status.phase" },
  { name: "Replicas", type: "integer", jsonPath: ".spec.replicas", priority: 1, description: "Wanted copies." },
  { name: "Ratio", type: "number", jsonPath: ".status.ratio" },
  { name: "Paused", type: "boolean", jsonPath: ".spec.paused" },
  { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
  { name: "Ready", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
  { name: "Selector", type: "string", jsonPath: ".spec.selector", format: "selector" },
];

describe("toTable with the default convertor", () => {
  const kind = servedKind([]);

  it("has Name and Created At columns and RFC 3339 UTC creation times", () => {
    const table = toTable([widget("a")], kind, { includeObject: "None", version: "v1", now: NOW });
    expect(table.kind).toBe("Table");
    expect(table.apiVersion).toBe("meta.k8s.io/v1");
    expect(table.metadata).toEqual({ resourceVersion: "7" });
    const defs = table.columnDefinitions as Record<string, unknown>[];
    expect(defs.map((d) => [d.name, d.type, d.format, d.priority])).toEqual([
      ["Name", "string", "name", 0],
      ["Created At", "date", "", 0],
    ]);
    expect(table.rows).toEqual([{ cells: ["a", "2024-03-01T11:55:00Z"], object: null }]);
  });

  it("converts offsets to UTC and writes Go's zero time for a missing timestamp", () => {
    const offset = widget("b");
    (offset.metadata as Record<string, unknown>).creationTimestamp = "2024-03-01T13:55:00.5+02:00";
    const none = { metadata: { name: "c" } };
    const table = toTable([offset, none], kind, { includeObject: "None", version: "v1", listMeta: {} });
    expect((table.rows as { cells: unknown[] }[]).map((r) => r.cells)).toEqual([
      ["b", "2024-03-01T11:55:00Z"],
      ["c", "0001-01-01T00:00:00Z"],
    ]);
  });

  it("answers rows: null for an empty list, as kube's default convertor does", () => {
    const table = toTable([], kind, {
      includeObject: "Metadata",
      version: "v1beta1",
      listMeta: { resourceVersion: "9", continue: "", remainingItemCount: 0 },
    });
    expect(table.apiVersion).toBe("meta.k8s.io/v1beta1");
    expect(table.metadata).toEqual({ resourceVersion: "9", remainingItemCount: 0 });
    expect(table.rows).toBeNull();
  });
});

describe("toTable with printer columns", () => {
  const kind = servedKind(columns);

  it("prepends Name and describes each column", () => {
    const table = toTable([], kind, { includeObject: "None", version: "v1", listMeta: { resourceVersion: "1" } });
    const defs = table.columnDefinitions as Record<string, unknown>[];
    expect(defs[0]).toMatchObject({ name: "Name", format: "name" });
    expect(defs[1]).toEqual({
      name: "Phase",
      type: "string",
      format: "",
      description: "Custom resource definition column (in JSONPath format): .status.phase",
      priority: 0,
    });
    expect(defs[2]).toMatchObject({ name: "Replicas", type: "integer", description: "Wanted copies.", priority: 1 });
    expect(defs[7]).toMatchObject({ name: "Selector", format: "selector" });
    expect(table.rows).toEqual([]);
  });

  it("formats cells by column type", () => {
    const obj = widget("w", {
      spec: { replicas: 3.7, paused: false, selector: { matchLabels: { app: "w" } } },
      status: { phase: "Running", ratio: 2, conditions: [{ type: "Ready", status: "True" }] },
    });
    const table = toTable([obj], kind, { includeObject: "None", version: "v1", now: NOW });
    expect((table.rows as { cells: unknown[] }[])[0]?.cells).toEqual([
      "w",
      "Running",
      3,
      2,
      false,
      "5m",
      "True",
      '{"matchLabels":{"app":"w"}}',
    ]);
  });

  it("answers null for missing values and values of the wrong type", () => {
    const obj = widget("w", { spec: { replicas: "3", paused: "no" }, status: { phase: null, ratio: "x" } });
    (obj.metadata as Record<string, unknown>).creationTimestamp = "yesterday";
    const table = toTable([obj], kind, { includeObject: "None", version: "v1", now: NOW });
    expect((table.rows as { cells: unknown[] }[])[0]?.cells).toEqual([
      "w",
      "<no value>",
      null,
      null,
      null,
      "<invalid>",
      null,
      null,
    ]);
  });

  it("leaves a column whose path does not parse empty", () => {
    const broken = servedKind([{ name: "Broken", type: "string", jsonPath: ".spec[0" }]);
    const table = toTable([widget("w")], broken, { includeObject: "None", version: "v1" });
    expect((table.rows as { cells: unknown[] }[])[0]?.cells).toEqual(["w", null]);
  });

  it("omits column definitions when asked for rows only", () => {
    const table = toTable([widget("w")], kind, { includeObject: "None", version: "v1", noHeaders: true });
    expect(table.columnDefinitions).toBeNull();
  });
});

describe("toTable row objects", () => {
  const kind = servedKind([]);
  const obj = { metadata: { name: "w", uid: "u1" }, spec: { x: 1 } };

  it("embeds PartialObjectMetadata for Metadata", () => {
    const table = toTable([obj], kind, { includeObject: "Metadata", version: "v1" });
    expect((table.rows as { object: unknown }[])[0]?.object).toEqual({
      kind: "PartialObjectMetadata",
      apiVersion: "meta.k8s.io/v1",
      metadata: { name: "w", uid: "u1" },
    });
  });

  it("embeds the whole object, kind and apiVersion first, for Object", () => {
    const table = toTable([obj], kind, { includeObject: "Object", version: "v1" });
    const embedded = (table.rows as { object: Record<string, unknown> }[])[0]?.object;
    expect(embedded).toEqual({ kind: "Widget", apiVersion: "example.io/v1", metadata: obj.metadata, spec: { x: 1 } });
    expect(Object.keys(embedded ?? {})).toEqual(["kind", "apiVersion", "metadata", "spec"]);
  });
});

describe("humanDuration", () => {
  const s = 1000;
  const m = 60 * s;
  const h = 60 * m;
  const d = 24 * h;
  it.each([
    [-3 * s, "<invalid>"],
    [-1500, "0s"],
    [0, "0s"],
    [119 * s, "119s"],
    [2 * m, "2m"],
    [5 * m + 30 * s, "5m30s"],
    [10 * m + 30 * s, "10m"],
    [179 * m, "179m"],
    [3 * h, "3h"],
    [7 * h + 59 * m, "7h59m"],
    [47 * h, "47h"],
    [2 * d, "2d"],
    [7 * d + 5 * h, "7d5h"],
    [729 * d, "729d"],
    [2 * 365 * d, "2y"],
    [3 * 365 * d + 10 * d, "3y10d"],
    [9 * 365 * d, "9y"],
  ])("%i ms is %s", (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });
});

describe("parseRfc3339", () => {
  it("reads offsets and fractions and refuses what Go refuses", () => {
    expect(parseRfc3339("2024-03-01T12:00:00Z")).toBe(NOW);
    expect(parseRfc3339("2024-03-01T14:00:00+02:00")).toBe(NOW);
    expect(parseRfc3339("2024-03-01T12:00:00.250Z")).toBe(NOW + 250);
    expect(parseRfc3339("0001-01-01T00:00:00Z")).toBe(Date.parse("0001-01-01T00:00:00Z"));
    expect(parseRfc3339("2024-02-30T00:00:00Z")).toBeUndefined();
    expect(parseRfc3339("2024-03-01 12:00:00Z")).toBeUndefined();
    expect(parseRfc3339("2024-03-01T12:00:00")).toBeUndefined();
  });
});

describe("printer columns of built-in kinds", () => {
  it("parse or name a printer cell, and hold one Name column", () => {
    for (const record of kinds) {
      const columns = record.resource?.printerColumns ?? [];
      const names = columns.map((c) => {
        if (c.jsonPath !== undefined) {
          expect(() => parseJsonPath(c.jsonPath ?? ""), `${record.kind} ${c.name}`).not.toThrow();
        }
        if (c.cell !== undefined) expect(printerCells[c.cell], `${record.kind} ${c.name}`).toBeTypeOf("function");
        return c.name;
      });
      const placed = columns.some((c) => c.cell !== undefined) ? [] : ["Name"];
      expect(new Set([...placed, ...names]).size, record.kind).toBe(names.length + placed.length);
    }
  });

  it("print a Deployment as kube's printer does", () => {
    const deployments = byGroupVersionResource(kinds, "apps", "v1", "deployments");
    if (deployments === undefined) throw new Error("apps/v1 deployments not served");
    const deployment = {
      metadata: { name: "web", creationTimestamp: "2024-03-01T09:00:00Z" },
      spec: {
        replicas: 3,
        selector: {
          matchLabels: { app: "web" },
          matchExpressions: [{ key: "tier", operator: "In", values: ["b", "a"] }],
        },
        template: {
          spec: {
            containers: [
              { name: "web", image: "nginx" },
              { name: "log", image: "busybox" },
            ],
          },
        },
      },
      status: { updatedReplicas: 2, readyReplicas: 1 },
    };
    const table = toTable([deployment], kindReference(deployments), { includeObject: "None", version: "v1", now: NOW });
    expect((table.columnDefinitions as { name: string; priority: number }[]).map((d) => [d.name, d.priority])).toEqual([
      ["Name", 0],
      ["Ready", 0],
      ["Up-to-date", 0],
      ["Available", 0],
      ["Age", 0],
      ["Containers", 1],
      ["Images", 1],
      ["Selector", 1],
    ]);
    expect((table.rows as { cells: unknown[] }[])[0]?.cells).toEqual([
      "web",
      "1/3",
      2,
      0,
      "3h",
      "web,log",
      "nginx,busybox",
      "app=web,tier in (a,b)",
    ]);
  });
});
