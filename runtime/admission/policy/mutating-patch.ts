// What a mutation's value does to the object: an ApplyConfiguration's `Object{…}` merged in with
// server-side apply's typed merge over the kind's schema (atomic fields may not be set), a JSONPatch list
// applied as a JSON Patch; failures are Errors with kube-apiserver's texts.

import type { Path } from "../../apply/fieldpath/path-element.js";
import { pathText } from "../../apply/fieldpath/path-string.js";
import {
  fieldType,
  type ManagedSchema,
  resolveType,
  rootType,
  type SchemaType,
} from "../../apply/typed/managed-schema.js";
import { mergeObjects } from "../../apply/typed/merge-objects.js";
import { fieldSetOf } from "../../apply/typed/to-field-set.js";
import { type TypedProblem, typedProblemsText } from "../../apply/typed/typed-problem.js";
import { celToJson } from "../../cel/common/json-to-cel.js";
import { CelError, CelList, CelMap, CelObject, type CelValue } from "../../cel/common/values.js";
import { jsonPatchTypeName } from "../../cel/library/kubernetes/mutation-library.js";
import { StatusError } from "../../errors/status-error.js";
import { isJsonObject, type JsonObject } from "../../object/json-object.js";
import { applyJsonPatch, type JsonPatchOperation } from "../../patch/json-patch.js";
import type { CompiledMutation } from "./mutating-compile-policy.js";

class MutationFailure extends Error {}

/**
 * A CEL value as JSON. Objects built with `Object.…{}` must be named by their field path from the root
 * (`Object.spec.template` under `spec.template`), as kube checks before it uses them.
 */
function toJson(value: CelValue, typePath: readonly string[], mismatches: string[]): unknown {
  if (value instanceof CelObject) {
    const expected = typePath.join(".");
    if (typePath.length > 0 && value.type.name !== expected) {
      mismatches.push(
        `unexpected type name "${value.type.name}", expected "${expected}", which matches field name path from root Object type`,
      );
    }
    const out: JsonObject = {};
    const path = typePath.length > 0 ? typePath : [value.type.name];
    for (const name of value.fieldNames()) out[name] = toJson(value.get(name) ?? null, [...path, name], mismatches);
    return out;
  }
  if (value instanceof CelList) return value.toArray().map((item) => toJson(item, typePath, mismatches));
  if (value instanceof CelMap) {
    const out: JsonObject = {};
    for (const [key, item] of value.entries()) {
      if (typeof key !== "string") throw new MutationFailure(`map key ${String(key)} is not a string`);
      out[key] = toJson(item, typePath, mismatches);
    }
    return out;
  }
  const json = celToJson(value);
  if (json === undefined) throw new MutationFailure("value could not be converted to JSON");
  return json;
}

function typedValue(value: CelValue, rootName: string | undefined): unknown {
  const mismatches: string[] = [];
  const json = toJson(value, rootName === undefined ? [] : [rootName], mismatches);
  if (mismatches.length > 0) throw new MutationFailure(`type mismatch: ${mismatches.join("\n")}`);
  return json;
}

/** structured-merge-diff's findAtomics: paths where the patch sets an atomic struct, map or list. */
function atomicPaths(schema: ManagedSchema, type: SchemaType, value: unknown, path: Path, out: Path[]): void {
  const resolved = resolveType(type, value);
  if (isJsonObject(value) && (resolved.kind === "struct" || resolved.kind === "map")) {
    if (resolved.atomic) out.push(path);
    for (const [name, item] of Object.entries(value)) {
      const child = resolved.kind === "map" ? resolved.element : fieldType(schema, resolved, name);
      if (child !== undefined) atomicPaths(schema, child, item, [...path, { field: name }], out);
    }
  }
  if (Array.isArray(value) && resolved.kind === "list") {
    if (resolved.atomic) out.push(path);
    value.forEach((item, index) => {
      atomicPaths(schema, resolved.element, item, [...path, { index }], out);
    });
  }
}

function applyConfiguration(schema: ManagedSchema, object: JsonObject, patch: JsonObject): JsonObject {
  const config = { ...patch, apiVersion: object.apiVersion, kind: object.kind };
  const root = rootType(schema);
  const problems: TypedProblem[] = [];
  fieldSetOf(schema, root, config, problems);
  if (problems.length > 0) {
    throw new MutationFailure(
      `error applying patch: failed to convert patch object to typed object: ${typedProblemsText(problems)}`,
    );
  }
  const atomics: Path[] = [];
  atomicPaths(schema, root, config, [], atomics);
  if (atomics.length > 0) {
    throw new MutationFailure(
      `error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: ${atomics.map(pathText).join(", ")}`,
    );
  }
  return mergeObjects(schema, root, object, config) as JsonObject;
}

function jsonPatchOperations(value: CelValue): JsonPatchOperation[] {
  if (!(value instanceof CelList))
    throw new MutationFailure("type mismatch: JSONPatchType.expression should evaluate to array");
  return value.toArray().map((item) => {
    if (!(item instanceof CelObject) || item.type.name !== jsonPatchTypeName) {
      throw new MutationFailure("type mismatch: JSONPatchType.expression should evaluate to array of JSONPatch");
    }
    const field = (name: string) => {
      const v = item.get(name);
      return typeof v === "string" ? v : "";
    };
    const op: Record<string, unknown> = { op: field("op"), path: field("path") };
    if (field("from") !== "") op.from = field("from");
    const patchValue = item.get("value");
    if (patchValue !== undefined) {
      op.value = typedValue(patchValue, patchValue instanceof CelObject ? patchValue.type.name : undefined);
    }
    return op;
  });
}

function applyJsonPatchValue(object: JsonObject, value: CelValue): JsonObject {
  const operations = jsonPatchOperations(value);
  try {
    return applyJsonPatch(object, { operations, problems: [] }) as JsonObject;
  } catch (error) {
    const cause = error instanceof StatusError ? error.cause : undefined;
    if (!(cause instanceof Error)) throw error;
    // A failed test operation leaves the object as it was, as kube's patcher does.
    if (cause.message.endsWith(": test failed")) return object;
    throw new MutationFailure(`JSON Patch: ${cause.message}`);
  }
}

/** The object after one mutation; an Error carries kube's text for why it could not be made. */
export function applyMutation(
  mutation: CompiledMutation,
  value: CelValue,
  schema: ManagedSchema,
  object: JsonObject,
): JsonObject | Error {
  if (mutation.expression.program === undefined) return new Error(mutation.expression.problem ?? "");
  if (value instanceof CelError) return new Error(value.message);
  try {
    if (mutation.patchType === "JSONPatch") return applyJsonPatchValue(object, value);
    if (!(value instanceof CelObject)) {
      return new Error("unsupported return type from ApplyConfiguration expression");
    }
    return applyConfiguration(schema, object, typedValue(value, undefined) as JsonObject);
  } catch (error) {
    if (error instanceof MutationFailure) return new Error(error.message);
    throw error;
  }
}
