// managedFields entries and managers: identifiers as kube builds them, the order entries are written in,
// the reasons an entry cannot be read, and the reset request.
import { describe, expect, it } from "vitest";
import { FieldSet } from "../../../runtime/apply/fieldpath/field-set.js";
import { fieldElement } from "../../../runtime/apply/fieldpath/path-element.js";
import {
  decodeManagedFields,
  encodeManagedFields,
  isResetManagedFields,
  managerIdentity,
  managerKey,
} from "../../../runtime/apply/managed-fields.js";

const entry = (manager: string, operation: string, time?: string, extra: Record<string, unknown> = {}) => ({
  manager,
  operation,
  apiVersion: "apps/v1",
  ...(time !== undefined ? { time } : {}),
  fieldsType: "FieldsV1",
  fieldsV1: { "f:spec": { "f:replicas": {} } },
  ...extra,
});

describe("manager identifiers", () => {
  it("leave the version out for appliers only", () => {
    expect(managerKey({ manager: "kubectl", operation: "Apply", apiVersion: "apps/v1" })).toBe(
      '{"manager":"kubectl","operation":"Apply"}',
    );
    const key = managerKey({ manager: "k", operation: "Update", apiVersion: "v1", subresource: "status" });
    expect(key).toBe('{"manager":"k","operation":"Update","apiVersion":"v1","subresource":"status"}');
    expect(managerIdentity(key)).toEqual({
      manager: "k",
      operation: "Update",
      apiVersion: "v1",
      subresource: "status",
    });
  });
});

describe("decoding and encoding", () => {
  it("round-trips entries and orders them by operation, time, manager, version and subresource", () => {
    const entries = [
      entry("z", "Update", "2026-01-01T00:00:05Z"),
      entry("b", "Update", "2026-01-01T00:00:01Z", { subresource: "status" }),
      entry("a", "Update", "2026-01-01T00:00:01Z"),
      entry("late", "Apply", "2026-01-01T00:00:09Z"),
      entry("untimed", "Apply"),
    ];
    const out = encodeManagedFields(decodeManagedFields(entries));
    expect(out?.map((e) => e.manager)).toEqual(["untimed", "late", "a", "b", "z"]);
    expect(out?.[3]).toEqual(entries[1]);
  });

  it("writes no list when there is no manager", () => {
    expect(encodeManagedFields(decodeManagedFields([]))).toBeUndefined();
    expect(decodeManagedFields(undefined).managers.size).toBe(0);
  });

  it("keeps one entry per manager identity", () => {
    const state = decodeManagedFields([entry("a", "Apply"), { ...entry("a", "Apply"), apiVersion: "apps/v2" }]);
    expect([...state.managers.values()].map((v) => v.apiVersion)).toEqual(["apps/v2"]);
    expect(
      state.managers
        .values()
        .next()
        .value?.set.equals(FieldSet.of([fieldElement("spec"), fieldElement("replicas")])),
    ).toBe(true);
  });

  it("says why an entry cannot be read", () => {
    expect(() => decodeManagedFields([{ ...entry("a", "Patch") }])).toThrow("operation must be `Apply` or `Update`");
    expect(() => decodeManagedFields([{ ...entry("a", "Apply"), apiVersion: "" }])).toThrow(
      "apiVersion must not be empty",
    );
    expect(() => decodeManagedFields([{ ...entry("a", "Apply"), fieldsType: undefined }])).toThrow(
      "missing fieldsType in managed fields entry 0",
    );
    expect(() => decodeManagedFields([{ ...entry("a", "Apply"), fieldsType: "FieldsV2" }])).toThrow(
      'invalid fieldsType "FieldsV2" in managed fields entry 0',
    );
  });

  it("recognizes the reset request: a single empty entry, not an empty list", () => {
    expect(isResetManagedFields([{}])).toBe(true);
    expect(isResetManagedFields([{ manager: "" }])).toBe(true);
    expect(isResetManagedFields([])).toBe(false);
    expect(isResetManagedFields([{}, {}])).toBe(false);
    expect(isResetManagedFields([{ manager: "a" }])).toBe(false);
  });
});
