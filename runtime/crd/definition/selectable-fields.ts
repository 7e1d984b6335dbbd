// selectableFields: at most 8 distinct JSON paths to string, boolean or integer fields the schema
// declares, outside metadata.

import { validFieldPath } from "../../cel/rules/rule-field-path.js";
import type { StructuralSchema } from "../../cel/rules/structural-schema.js";
import { duplicate, type FieldError, invalid, required, tooMany } from "../../errors/field-error.js";
import { child, index } from "../../errors/field-path.js";

export const maxSelectableFields = 8;

/** Splits a field path as printed (`spec.a`, `labels[x.y]`) into its property names and map keys. */
function segments(fieldPath: string): string[] {
  const out: string[] = [];
  let current = "";
  for (let i = 0; i < fieldPath.length; i++) {
    const ch = fieldPath[i];
    if (ch === ".") {
      out.push(current);
      current = "";
    } else if (ch === "[") {
      if (current !== "") out.push(current);
      const end = fieldPath.indexOf("]", i);
      out.push(fieldPath.slice(i + 1, end));
      current = "";
      i = end;
      if (fieldPath[i + 1] === ".") i++;
    } else current += ch;
  }
  if (current !== "") out.push(current);
  return out;
}

function schemaAt(schema: StructuralSchema, names: readonly string[]): StructuralSchema | undefined {
  let node: StructuralSchema | undefined = schema;
  for (const name of names) {
    if (node === undefined) return undefined;
    const additional: StructuralSchema | boolean | undefined = node.additionalProperties;
    node = node.properties?.[name] ?? (typeof additional === "object" ? additional : undefined);
  }
  return node;
}

const selectableTypes = new Set(["string", "boolean", "integer"]);

export function validateSelectableFields(
  fields: readonly (string | undefined)[],
  schema: StructuralSchema,
  path: string,
  allowTooMany: boolean,
): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  fields.forEach((jsonPath, i) => {
    const at = child(index(path, i), "jsonPath");
    if (jsonPath === undefined) return;
    if (jsonPath === "") {
      errs.push(required(at));
      return;
    }
    const result = validFieldPath(jsonPath, schema);
    if ("error" in result) {
      errs.push(invalid(at, jsonPath, `is an invalid path: ${result.error}`));
      return;
    }
    const names = segments(result.path);
    if (names[0] === "metadata") errs.push(invalid(at, jsonPath, "must not point to fields in metadata"));
    const type = schemaAt(schema, names)?.type;
    if (type === undefined || !selectableTypes.has(type)) {
      const detail =
        "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.";
      errs.push(invalid(at, jsonPath, detail));
    }
    if (seen.has(result.path)) errs.push(duplicate(at, jsonPath));
    else seen.add(result.path);
  });
  if (seen.size > maxSelectableFields && !allowTooMany) errs.push(tooMany(path, seen.size, maxSelectableFields));
  return errs;
}
