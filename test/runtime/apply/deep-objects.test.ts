// Objects nested deeper than kapi stores never reach the field manager's walks: a write whose object, with
// the managedFields recorded for it, would nest past 1000 containers is refused as kube-apiserver v1.36.2
// refuses one past 10000 (checked against it: a value nested 9993 maps deep under `.spec.x` is kept, 9994
// answers 500 `invalid character '{' exceeded max depth`, since fieldsV1 nest below the fields they own).
import { describe, expect, it } from "vitest";
import { fieldTable } from "../../../generated/fields.js";
import {
  type ApplyContext,
  applyConfiguration,
  checkConfiguration,
  schemaForKind,
  updateManagedFields,
} from "../../../runtime/apply/field-manager.js";
import { StatusError } from "../../../runtime/errors/status-error.js";
import type { KubeObject } from "../../../runtime/object/kube-object.js";

const schema = schemaForKind(fieldTable, "example.com/v1/Unknown");
const ctx: ApplyContext = { manager: "m", apiVersion: "example.com/v1", time: "2026-01-01T00:00:00Z", force: false };

function nested(n: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < n; i++) value = { a: value };
  return value;
}

function listed(n: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < n; i++) value = [value];
  return value;
}

/** An object whose `.spec.x` holds `x`: two containers above it. */
const object = (x: unknown, metadata: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: "example.com/v1",
  kind: "Unknown",
  metadata: { name: "o", ...metadata },
  spec: { x },
});

const managedFields = (obj: KubeObject) => (obj.metadata as Record<string, unknown>).managedFields;

function refusal(run: () => unknown): [number, string] {
  try {
    run();
  } catch (error) {
    if (error instanceof StatusError) return [error.code, error.message];
    throw error;
  }
  throw new Error("expected a StatusError");
}

describe("objects nested deeper than kapi stores", () => {
  it("records an update of an object whose managedFields stay within 1000 containers", () => {
    expect(managedFields(updateManagedFields(schema, undefined, object(nested(993)), ctx))).toHaveLength(1);
  });

  it("refuses an update whose managedFields would nest past 1000 containers", () => {
    expect(refusal(() => updateManagedFields(schema, undefined, object(nested(994)), ctx))).toEqual([
      400,
      "invalid character '{' exceeded max depth",
    ]);
  });

  it("keeps an atomic list as deep as the object may be, and refuses one deeper", () => {
    expect(updateManagedFields(schema, undefined, object(listed(998)), ctx).spec).toEqual({ x: listed(998) });
    expect(refusal(() => updateManagedFields(schema, undefined, object(listed(999)), ctx))).toEqual([
      400,
      "invalid character '[' exceeded max depth",
    ]);
  });

  it("refuses managedFields a client sends nested deeper, before reading them", () => {
    const sent = [{ manager: "x", operation: "Update", fieldsType: "FieldsV1", fieldsV1: nested(5000, {}) }];
    expect(refusal(() => updateManagedFields(schema, undefined, object(1, { managedFields: sent }), ctx))).toEqual([
      400,
      "invalid character '{' exceeded max depth",
    ]);
  });

  it("refuses an applied configuration nested deeper, whatever the live object", () => {
    expect(refusal(() => applyConfiguration(schema, undefined, object(nested(5000)), ctx))).toEqual([
      400,
      "invalid character '{' exceeded max depth",
    ]);
    expect(refusal(() => checkConfiguration(schema, object(nested(5000))))).toEqual([
      400,
      "invalid character '{' exceeded max depth",
    ]);
    expect(managedFields(applyConfiguration(schema, undefined, object(nested(993)), ctx))).toHaveLength(1);
  });

  it("reads no fields from a last-applied annotation nested deeper", () => {
    const deep = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
    const annotation = `{"apiVersion":"example.com/v1","kind":"Unknown","spec":{"x":${deep}}}`;
    const annotations = { "kubectl.kubernetes.io/last-applied-configuration": annotation };
    const other = { ...ctx, manager: "other" };
    const live = updateManagedFields(schema, undefined, object(1, { annotations, uid: "u" }), other);
    const kubectl = { ...ctx, manager: "kubectl" };
    expect(refusal(() => applyConfiguration(schema, live, object(2), kubectl))[0]).toBe(409);
  });
});
