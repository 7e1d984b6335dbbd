// Operation scripts in the manner of structured-merge-diff's merge tests: a schema, then applies and
// updates by named managers, each checked for the conflicts it raises, the object it leaves and the
// managedFields it records. Objects are YAML (or JSON, which is YAML); the runner plays the store, keeping
// the object (with a uid once created) between steps and giving each step a later time.
import { expect } from "vitest";
import { parse } from "yaml";
import { applyConfiguration, type ManagedSchema, updateManagedFields } from "../../../runtime/apply/field-manager.js";
import { decodeFieldsV1 } from "../../../runtime/apply/fieldpath/fields-v1.js";
import { pathText } from "../../../runtime/apply/fieldpath/path-string.js";
import { StatusError } from "../../../runtime/errors/status-error.js";
import type { KubeObject } from "../../../runtime/object/kube-object.js";

export interface ExpectedEntry {
  manager: string;
  operation: "Apply" | "Update";
  apiVersion?: string;
  subresource?: string;
  time?: string;
  /** FieldsV1 as YAML or an object. */
  fields: string | Record<string, unknown>;
}

/** The expected entry of an applier (`appliedBy`) or an updater (`updatedBy`) owning `fields`. */
export function appliedBy(manager: string, fields: string): ExpectedEntry {
  return { manager, operation: "Apply", fields };
}

export function updatedBy(manager: string, fields: string): ExpectedEntry {
  return { manager, operation: "Update", fields };
}

export interface Step {
  /** apply, apply with force, or a non-apply write (create, update, patch) of the whole object. */
  op: "apply" | "force-apply" | "update";
  manager: string;
  object: string | KubeObject;
  apiVersion?: string;
  subresource?: string;
  resetPaths?: readonly (readonly string[])[];
  /** The apply fails with these conflicts: `"manager" path` per cause, e.g. `conflict with "a": .spec.x`. */
  conflicts?: readonly string[];
  /** The object afterwards, without managedFields and uid. */
  expectObject?: string | KubeObject;
  /** managedFields afterwards, in order. */
  expectManaged?: readonly ExpectedEntry[];
}

export interface Script {
  schema: ManagedSchema;
  apiVersion: string;
  kind?: string;
  steps: readonly Step[];
}

export function yamlObject(text: string | KubeObject): KubeObject {
  return typeof text === "string" ? (parse(text) as KubeObject) : text;
}

/** The object as a test compares it: without managedFields and the uid the runner gave it. */
export function withoutBookkeeping(obj: KubeObject): KubeObject {
  const copy = structuredClone(obj);
  const metadata = copy.metadata as Record<string, unknown> | undefined;
  if (metadata !== undefined) {
    delete metadata.managedFields;
    delete metadata.uid;
    if (Object.keys(metadata).length === 0) delete copy.metadata;
  }
  return copy;
}

/**
 * A managedFields entry as a comparable summary: fields as path texts, and of apiVersion, subresource and
 * time only those the expected entry `like` names.
 */
function summary(entry: Record<string, unknown>, like: Record<string, unknown>): Record<string, unknown> {
  const raw = typeof entry.fields === "string" ? parse(entry.fields) : (entry.fieldsV1 ?? entry.fields);
  const out: Record<string, unknown> = { manager: entry.manager, operation: entry.operation };
  for (const key of ["apiVersion", "subresource", "time"]) if (like[key] !== undefined) out[key] = entry[key];
  out.fields = decodeFieldsV1(raw).paths().map(pathText);
  return out;
}

function managedOf(obj: KubeObject | undefined): Record<string, unknown>[] {
  const metadata = obj?.metadata as Record<string, unknown> | undefined;
  return (metadata?.managedFields as Record<string, unknown>[] | undefined) ?? [];
}

export function stepTime(index: number): string {
  return new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString().replace(".000Z", "Z");
}

/** Runs the steps, checking each; returns the final object. */
export function runScript(script: Script, initial?: KubeObject): KubeObject | undefined {
  let live = initial;
  script.steps.forEach((step, index) => {
    const label = `step ${index} (${step.op} by ${step.manager})`;
    const ctx = {
      manager: step.manager,
      apiVersion: step.apiVersion ?? script.apiVersion,
      time: stepTime(index + 1),
      ...(step.subresource !== undefined ? { subresource: step.subresource } : {}),
      ...(step.resetPaths !== undefined ? { resetPaths: step.resetPaths } : {}),
      ...(script.kind !== undefined ? { kind: script.kind } : {}),
    };
    const body = yamlObject(step.object);
    let next: KubeObject;
    try {
      if (step.op === "update") {
        const uid = (live?.metadata as Record<string, unknown> | undefined)?.uid;
        const metadata = { ...((body.metadata as Record<string, unknown> | undefined) ?? {}) };
        if (uid !== undefined) metadata.uid = uid;
        next = updateManagedFields(script.schema, live, { ...body, metadata }, ctx);
      } else {
        next = applyConfiguration(script.schema, live, body, { ...ctx, force: step.op === "force-apply" });
      }
    } catch (e) {
      if (step.conflicts === undefined || !(e instanceof StatusError)) throw e;
      expect(e.code, label).toBe(409);
      const causes = (e.status.details?.causes ?? []).map((c) => `${c.message}: ${c.field}`);
      expect([...causes].sort(), label).toEqual([...step.conflicts].sort());
      return;
    }
    expect(step.conflicts, `${label} succeeded, expected conflicts`).toBeUndefined();
    const metadata = (next.metadata ?? {}) as Record<string, unknown>;
    next = { ...next, metadata: { ...metadata, uid: metadata.uid ?? "uid-1" } };
    live = next;
    if (step.expectObject !== undefined) {
      expect(withoutBookkeeping(next), label).toEqual(withoutBookkeeping(yamlObject(step.expectObject)));
    }
    if (step.expectManaged !== undefined) {
      const expected = step.expectManaged.map((e) => ({ ...e }) as Record<string, unknown>);
      const received = managedOf(next).map((e, i) => summary(e, expected[i] ?? {}));
      expect(received, label).toEqual(expected.map((e) => summary(e, e)));
    }
  });
  return live;
}
