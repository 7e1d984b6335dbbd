// Server-side apply over a custom resource's field table: list-type markers from its schema honoured,
// unmarked lists atomic, metadata the built-in ObjectMeta; below x-kubernetes-preserve-unknown-fields the
// declared properties keep their markers and undeclared fields are deduced.
import { describe, expect, it } from "vitest";
import { fieldTable } from "../../../../generated/fields.js";
import type { FieldDefinition, FieldNode } from "../../../../runtime/codecs/field-table.js";
import { customResourceSchema } from "../../../../runtime/crd/schema/custom-resource-schema.js";
import { StatusError } from "../../../../runtime/errors/status-error.js";
import { appliedBy, runScript, type Step } from "../../apply/run-script.js";
import { specSchema } from "./spec-schema.js";

const portsSchema = {
  type: "array",
  "x-kubernetes-list-type": "map",
  "x-kubernetes-list-map-keys": ["name"],
  items: {
    type: "object",
    required: ["name"],
    properties: { name: { type: "string" }, port: { type: "integer" } },
  },
};

const schema = specSchema({
  ports: portsSchema,
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

/** Two managers apply an item each to `spec.ports` (a list map keyed by name), then one changes the other's. */
const portSteps: Step[] = [
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
];

describe("apply with a custom resource's field table", () => {
  it("keeps the generated definitions and appends the custom ones", () => {
    expect(schema.fields.table.definitions.slice(0, fieldTable.definitions.length)).toEqual(fieldTable.definitions);
    expect(schema.fields.table.definitions.length).toBeGreaterThan(fieldTable.definitions.length);
  });

  it("merges a list map by key: two managers each own their item", () => {
    runScript({
      ...base,
      steps: portSteps,
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

// `spec` keeps unknown fields and declares a list map, an atomic object and a plain object; `status` does
// not keep them and holds an embedded resource that does. schemaconv makes each preserving object a map
// with its declared fields and deduced others, passed down to the objects below it.
const preserving = customResourceSchema({
  type: "object",
  properties: {
    spec: {
      type: "object",
      "x-kubernetes-preserve-unknown-fields": true,
      properties: {
        ports: portsSchema,
        selector: { type: "object", "x-kubernetes-map-type": "atomic", properties: { app: { type: "string" } } },
        template: { type: "object", properties: { image: { type: "string" } } },
      },
    },
    status: {
      type: "object",
      properties: {
        resource: {
          type: "object",
          "x-kubernetes-embedded-resource": true,
          "x-kubernetes-preserve-unknown-fields": true,
        },
        phase: { type: "string" },
      },
    },
  },
});

const preservingBase = { schema: preserving.fields, apiVersion: "example.com/v1", kind: "Widget" };

function definitionOf(path: readonly string[]): FieldDefinition {
  const { table, root } = preserving.fields;
  let node: FieldNode | undefined = root;
  for (const name of path) node = typeof node === "number" ? table.definitions[node]?.fields[name] : undefined;
  const definition = typeof node === "number" ? table.definitions[node] : undefined;
  if (definition === undefined) throw new Error(`no struct at ${path.join(".")}`);
  return definition;
}

function applyError(object: string): string {
  try {
    runScript({ ...preservingBase, steps: [{ op: "apply", manager: "a", object }] });
  } catch (e) {
    if (e instanceof StatusError) return e.message;
    throw e;
  }
  return "applied";
}

describe("apply below x-kubernetes-preserve-unknown-fields", () => {
  it("keeps preserving objects as structs whose other fields are deduced, inherited below them", () => {
    expect(definitionOf(["spec"])).toMatchObject({
      otherFields: "any",
      fields: { ports: { listType: "map", keys: ["name"] } },
    });
    expect(definitionOf(["spec", "selector"])).toMatchObject({ atomic: true, otherFields: "any" });
    expect(definitionOf(["spec", "template"]).otherFields).toBe("any");
    expect(definitionOf(["status"]).otherFields).toBeUndefined();
    expect(definitionOf(["status", "resource"])).toMatchObject({
      otherFields: "any",
      fields: { apiVersion: "string", kind: "string", metadata: expect.any(Number) },
    });
  });

  it("merges a declared list map by key: two managers own their items, the same key conflicts", () => {
    runScript({
      ...preservingBase,
      steps: [
        ...portSteps,
        {
          op: "apply",
          manager: "b",
          object: widget("selector:\n  app: one"),
          expectManaged: [
            appliedBy("a", `f:spec: {f:ports: {'k:{"name":"http"}': {.: {}, f:name: {}, f:port: {}}}}`),
            appliedBy("b", "f:spec: {f:selector: {}}"),
          ],
        },
      ],
    });
  });

  it("owns undeclared fields granularly, each one a member, and removes them when their applier drops them", () => {
    const applied = runScript({
      ...preservingBase,
      steps: [
        {
          op: "apply",
          manager: "a",
          object: widget("replicas: 2\nextra:\n  mode: fast\ntemplate:\n  image: x\n  tag: v1"),
          expectManaged: [
            appliedBy(
              "a",
              "f:spec: {f:replicas: {}, f:extra: {.: {}, f:mode: {}}, f:template: {f:image: {}, f:tag: {}}}",
            ),
          ],
        },
        {
          op: "apply",
          manager: "b",
          object: widget("extra:\n  level: 3"),
          expectManaged: [
            appliedBy(
              "a",
              "f:spec: {f:replicas: {}, f:extra: {.: {}, f:mode: {}}, f:template: {f:image: {}, f:tag: {}}}",
            ),
            appliedBy("b", "f:spec: {f:extra: {.: {}, f:level: {}}}"),
          ],
        },
        {
          op: "apply",
          manager: "b",
          object: widget("replicas: 3"),
          conflicts: ['conflict with "a": .spec.replicas'],
        },
        {
          op: "apply",
          manager: "a",
          object: widget("template:\n  image: x"),
          expectObject: widget("extra:\n  level: 3\ntemplate:\n  image: x"),
        },
      ],
    });
    expect(applied?.spec).toEqual({ extra: { level: 3 }, template: { image: "x" } });
  });

  it("still refuses undeclared fields where no ancestor keeps them, and values of the wrong type", () => {
    expect(applyError(`apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nstatus:\n  foo: 1\n`)).toContain(
      ".status.foo: field not declared in schema",
    );
    expect(applyError(widget("ports:\n- name: http\n  port: eighty"))).toContain(
      '.spec.ports[name="http"].port: expected numeric (int or float), got string',
    );
  });

  it("keeps an embedded resource's metadata typed: a set of finalizers, granular labels", () => {
    const resource = (meta: string, extra = "") =>
      `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nstatus:\n  resource:\n    apiVersion: v1\n    kind: ConfigMap\n    metadata:\n${meta
        .split("\n")
        .map((l) => `      ${l}`)
        .join("\n")}\n${extra}`;
    runScript({
      ...preservingBase,
      steps: [
        {
          op: "apply",
          manager: "a",
          object: resource("labels:\n  team: x\nfinalizers: [a/f]", "    data:\n      k: v\n"),
          expectManaged: [
            appliedBy(
              "a",
              `f:status: {f:resource: {f:apiVersion: {}, f:kind: {}, f:metadata: {f:labels: {f:team: {}}, f:finalizers: {'v:"a/f"': {}}}, f:data: {.: {}, f:k: {}}}}`,
            ),
          ],
        },
        {
          op: "apply",
          manager: "b",
          object: resource("labels:\n  tier: y\nfinalizers: [b/f]"),
          expectManaged: [
            appliedBy(
              "a",
              `f:status: {f:resource: {f:apiVersion: {}, f:kind: {}, f:metadata: {f:labels: {f:team: {}}, f:finalizers: {'v:"a/f"': {}}}, f:data: {.: {}, f:k: {}}}}`,
            ),
            appliedBy(
              "b",
              `f:status: {f:resource: {f:apiVersion: {}, f:kind: {}, f:metadata: {f:labels: {f:tier: {}}, f:finalizers: {'v:"b/f"': {}}}}}`,
            ),
          ],
        },
        {
          op: "apply",
          manager: "b",
          object: resource("labels:\n  team: z"),
          conflicts: ['conflict with "a": .status.resource.metadata.labels.team'],
        },
      ],
    });
  });
});
