// Pruning and defaulting of custom resources as the apiextensions server's decoder does them.
import { describe, expect, it } from "vitest";
import { customResourceSchema } from "../../../../runtime/crd/schema/custom-resource-schema.js";
import { toStructuralSchema } from "../../../../runtime/crd/schema/definition-structural-schema.js";
import { specSchema } from "./spec-schema.js";

const typeMeta = { apiVersion: "example.com/v1", kind: "Widget" };

describe("pruning", () => {
  const schema = specSchema({
    replicas: { type: "integer" },
    items: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } },
    labels: { type: "object", additionalProperties: { type: "object", properties: { v: { type: "string" } } } },
    free: {
      type: "object",
      "x-kubernetes-preserve-unknown-fields": true,
      properties: { strict: { type: "object", properties: { kept: { type: "string" } } } },
    },
    template: {
      type: "object",
      "x-kubernetes-embedded-resource": true,
      properties: { spec: { type: "object", properties: { image: { type: "string" } } } },
    },
    note: { type: "string" },
    maybe: { type: "string", nullable: true },
  });

  it("drops undeclared fields and reports them as strict validation names them", () => {
    const obj = {
      ...typeMeta,
      metadata: { name: "w", bogus: 1, ownerReferences: [{ uid: "u", extra: true }] },
      spec: {
        replicas: 1,
        zzz: true,
        items: [{ name: "a", x: 1 }, { name: "b" }],
        labels: { one: { v: "1", w: "2" } },
        free: { anything: { goes: 1 }, strict: { kept: "k", dropped: 1 } },
        template: {
          apiVersion: "v1",
          kind: "Pod",
          metadata: { name: "t", unknownSubMeta: "u" },
          spec: { image: "i", other: 1 },
          extra: 1,
        },
      },
      status: { ready: true },
    };
    expect(schema.prune(obj)).toEqual([
      "metadata.bogus",
      "metadata.ownerReferences[0].extra",
      "spec.free.strict.dropped",
      "spec.items[0].x",
      "spec.labels.one.w",
      "spec.template.extra",
      "spec.template.spec.other",
      "spec.zzz",
      "status",
      "spec.template.metadata.unknownSubMeta",
    ]);
    expect(obj).toEqual({
      ...typeMeta,
      metadata: { name: "w", ownerReferences: [{ uid: "u" }] },
      spec: {
        replicas: 1,
        items: [{ name: "a" }, { name: "b" }],
        labels: { one: { v: "1" } },
        free: { anything: { goes: 1 }, strict: { kept: "k" } },
        template: { apiVersion: "v1", kind: "Pod", metadata: { name: "t" }, spec: { image: "i" } },
      },
    });
  });

  it("drops nulls of non-nullable fields without a default, silently", () => {
    const obj = { ...typeMeta, metadata: { name: "w" }, spec: { note: null, maybe: null } };
    expect(schema.prune(obj)).toEqual([]);
    expect(obj.spec).toEqual({ maybe: null });
  });

  it("keeps everything below a preserving root", () => {
    const open = customResourceSchema({ type: "object", "x-kubernetes-preserve-unknown-fields": true });
    const obj = { ...typeMeta, metadata: { name: "w" }, spec: { a: { b: 1 } } };
    expect(open.prune(obj)).toEqual([]);
    expect(obj.spec).toEqual({ a: { b: 1 } });
  });
});

describe("defaulting", () => {
  const schema = specSchema(
    {
      replicas: { type: "integer", default: 1 },
      strategy: {
        type: "object",
        default: { type: "Rolling" },
        properties: { type: { type: "string" }, maxSurge: { type: "integer", default: 25 } },
      },
      ports: {
        type: "array",
        items: {
          type: "object",
          default: { name: "http" },
          properties: { name: { type: "string" }, protocol: { type: "string", default: "TCP" } },
        },
      },
      limits: {
        type: "object",
        additionalProperties: { type: "object", properties: { max: { type: "integer", default: 10 } } },
      },
      mode: { type: "string", default: "Auto" },
      comment: { type: "string", nullable: true, default: "none" },
    },
    { default: {} },
  );

  it("fills absent fields, nested defaults, list items and map values", () => {
    const obj: Record<string, unknown> = {
      ...typeMeta,
      spec: { ports: [{ name: "grpc" }, null], limits: { cpu: {}, mem: { max: 2 } } },
    };
    schema.default(obj);
    expect(obj.spec).toEqual({
      replicas: 1,
      strategy: { type: "Rolling", maxSurge: 25 },
      ports: [
        { name: "grpc", protocol: "TCP" },
        { name: "http", protocol: "TCP" },
      ],
      limits: { cpu: { max: 10 }, mem: { max: 2 } },
      mode: "Auto",
      comment: "none",
    });
  });

  it("defaults an absent spec, a non-nullable null, and keeps a nullable null", () => {
    const empty: Record<string, unknown> = { ...typeMeta };
    schema.default(empty);
    expect(empty.spec).toEqual({
      replicas: 1,
      strategy: { type: "Rolling", maxSurge: 25 },
      mode: "Auto",
      comment: "none",
    });
    const nulls: Record<string, unknown> = { ...typeMeta, spec: { mode: null, comment: null } };
    schema.default(nulls);
    expect(nulls.spec).toMatchObject({ mode: "Auto", comment: null });
  });

  it("copies defaults rather than sharing them", () => {
    const a: Record<string, unknown> = { ...typeMeta };
    const b: Record<string, unknown> = { ...typeMeta };
    schema.default(a);
    schema.default(b);
    (a.spec as { strategy: { type: string } }).strategy.type = "Changed";
    expect((b.spec as { strategy: { type: string } }).strategy.type).toBe("Rolling");
  });
});

describe("CEL schema", () => {
  it("is set only when a rule exists, with the resource's type and object metadata", () => {
    const withRule = customResourceSchema({
      type: "object",
      properties: {
        spec: {
          type: "object",
          "x-kubernetes-validations": [{ rule: "self.replicas >= 0", message: "no" }],
          properties: { replicas: { type: "integer" } },
        },
      },
    });
    expect(withRule.celSchema?.properties?.kind).toEqual({ type: "string" });
    expect(withRule.celSchema?.properties?.metadata?.properties?.name).toEqual({ type: "string" });
    expect(withRule.celSchema?.properties?.spec?.["x-kubernetes-validations"]).toEqual([
      { rule: "self.replicas >= 0", message: "no" },
    ]);
    expect(customResourceSchema({ type: "object" }).celSchema).toBeUndefined();
  });

  it("toStructuralSchema leaves out value-validation-only keywords", () => {
    expect(
      toStructuralSchema({
        type: "object",
        anyOf: [{ required: ["a"] }],
        properties: { a: { type: "string", pattern: "^a$", maxLength: 3, not: { enum: ["b"] } } },
      }),
    ).toEqual({ type: "object", properties: { a: { type: "string", maxLength: 3 } } });
  });
});
