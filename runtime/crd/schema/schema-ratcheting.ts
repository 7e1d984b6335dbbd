// Validation ratcheting of custom resources (kube's CRDValidationRatcheting, on by default): on update, an
// OpenAPI schema error is dropped when it lies at or below a value that is unchanged from its correlated old
// value. Values correlate through object fields, map entries and the items of `map` lists (by their keys);
// items of atomic and set lists do not, so their errors ratchet only when the whole list is unchanged.

import { Correlated, mapListIndex } from "../../cel/rules/rule-correlation.js";
import type { StructuralSchema } from "../../cel/rules/structural-schema.js";
import type { FieldError } from "../../errors/field-error.js";
import { isJsonObject } from "../../object/json-object.js";

/** kube-openapi's field names of the unchanged values nearest the root ("" for the root itself). */
function unchangedPaths(node: Correlated, path: string, out: string[]): void {
  if (node.unchanged()) {
    out.push(path);
    return;
  }
  const { value } = node;
  if (Array.isArray(value)) {
    const lookup = mapListIndex(node.schema, node.old);
    for (let i = 0; i < value.length; i++) {
      const item = node.index(i, lookup);
      if (item !== undefined) unchangedPaths(item, `${path}[${i}]`, out);
    }
  } else if (isJsonObject(value)) {
    for (const name of Object.keys(value)) {
      const child = node.key(name);
      if (child !== undefined) unchangedPaths(child, path === "" ? name : `${path}.${name}`, out);
    }
  }
}

function under(field: string, path: string): boolean {
  if (path === "") return true;
  return field === path || field.startsWith(`${path}.`) || field.startsWith(`${path}[`);
}

/** The errors of `obj`'s schema validation that stand on an update from `old`. */
export function ratchetSchemaErrors(
  schema: StructuralSchema,
  obj: unknown,
  old: unknown,
  errors: FieldError[],
): FieldError[] {
  if (errors.length === 0) return errors;
  const paths: string[] = [];
  unchangedPaths(new Correlated(obj, old, schema), "", paths);
  if (paths.length === 0) return errors;
  return errors.filter((e) => !paths.some((path) => under(e.field, path)));
}
