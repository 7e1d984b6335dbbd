// Server-side apply over a custom resource's field table: list-type markers from its schema honoured,
// unmarked lists atomic, metadata the built-in ObjectMeta.
import { describe, expect, it } from "vitest";
import { fieldTable } from "../../../../generated/fields.js";
import { appliedBy, runScript } from "../../apply/run-script.js";
import { specSchema } from "./spec-schema.js";

const schema = specSchema({
  ports: {
    type: "array",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": ["name"],
    items: {
      type: "object",
      required: ["name"],
      properties: { name: { type: "string" }, port: { type: "integer" } },
    },
  },
  hosts: { type: "array", items: { type: "string" } },
  selector: { type: "object", "x-kubernetes-map-type": "atomic", properties: { app: { type: "string" } } },
  extra: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
});

function widget(spec: string): string {
  const body = spec
    .trim()
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
  return `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n${body}\n`;
}

const base = { schema: schema.fields, apiVersion: "example.com/v1", kind: "Widget" };

describe("apply with a custom resource's field table", () => {
  it("keeps the generated definitions and appends the custom ones", () => {
    expect(schema.fields.table.definitions.slice(0, fieldTable.definitions.length)).toEqual(fieldTable.definitions);
    expect(schema.fields.table.definitions.length).toBeGreaterThan(fieldTable.definitions.length);
  });

  it("merges a list map by key: two managers each own their item", () => {
    runScript({
      ...base,
      steps: [
        {
          op: "apply",
          manager: "a",
          object: widget("ports:\n- name: http\n  port: 80"),
          expectManaged: [appliedBy("a", `f:spec: {f:ports: {'k:{"name":"http"}': {.: {}, f:name: {}, f:port: {}}}}`)],
        },
        {
          op: "apply",
          manager: "b",
          object: widget("ports:\n- name: grpc\n  port: 9090"),
          expectObject: widget("ports:\n- name: http\n  port: 80\n- name: grpc\n  port: 9090"),
          expectManaged: [
            appliedBy("a", `f:spec: {f:ports: {'k:{"name":"http"}': {.: {}, f:name: {}, f:port: {}}}}`),
            appliedBy("b", `f:spec: {f:ports: {'k:{"name":"grpc"}': {.: {}, f:name: {}, f:port: {}}}}`),
          ],
        },
        {
          op: "apply",
          manager: "b",
          object: widget("ports:\n- name: http\n  port: 8080"),
          conflicts: ['conflict with "a": .spec.ports[name="http"].port'],
        },
      ],
    });
  });

  it("treats an unmarked list as atomic and an atomic object as one field", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: widget("hosts: [x]\nselector:\n  app: one") },
        {
          op: "apply",
          manager: "b",
          object: widget("hosts: [y]\nselector:\n  app: two"),
          conflicts: ['conflict with "a": .spec.hosts', 'conflict with "a": .spec.selector'],
        },
      ],
    });
  });

  it("deduces preserved fields and owns metadata as ObjectMeta", () => {
    const applied = runScript({
      ...base,
      steps: [
        {
          op: "apply",
          manager: "a",
          object: `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  labels:\n    team: x\nspec:\n  extra:\n    any:\n      thing: 1\n`,
          expectManaged: [
            appliedBy("a", "{f:metadata: {f:labels: {f:team: {}}}, f:spec: {f:extra: {f:any: {.: {}, f:thing: {}}}}}"),
          ],
        },
      ],
    });
    expect(applied?.spec).toEqual({ extra: { any: { thing: 1 } } });
  });
});
