// Managed fields written under an older schema, brought up to the current one (structured-merge-diff's
// ReconcileFieldSetWithSchema). When a list, map or struct that was granular became atomic, whoever owned
// something inside it now owns it whole. The reverse change is left alone: who owns which part of a
// formerly atomic value cannot be told, so no one does and changing a part conflicts with no one.
import { FieldSet } from "../fieldpath/field-set.js";
import type { Path, PathElement } from "../fieldpath/path-element.js";
import { fieldType, type ManagedSchema, type SchemaType } from "./managed-schema.js";

function childType(schema: ManagedSchema, type: SchemaType, pe: PathElement): SchemaType | undefined {
  if (type.kind === "struct") return "field" in pe ? fieldType(schema, type, pe.field) : undefined;
  if (type.kind === "map") return "field" in pe ? type.element : undefined;
  if (type.kind === "list") return "field" in pe ? undefined : type.element;
  return undefined;
}

/** Paths below which a set has content although the schema now makes them atomic. */
function atomicWithContent(schema: ManagedSchema, type: SchemaType, set: FieldSet, path: Path, out: Path[]): void {
  for (const c of set.children) {
    const inner = childType(schema, type, c.element);
    if (inner === undefined || c.set.isEmpty()) continue;
    const at = [...path, c.element];
    if ((inner.kind === "struct" || inner.kind === "map" || inner.kind === "list") && inner.atomic) out.push(at);
    else atomicWithContent(schema, inner, c.set, at, out);
  }
}

/** `set` reconciled with the schema; the same set when nothing changed. */
export function reconcileWithSchema(schema: ManagedSchema, type: SchemaType, set: FieldSet): FieldSet {
  if (type.kind === "deduced") return set;
  const converted: Path[] = [];
  atomicWithContent(schema, type, set, [], converted);
  if (converted.length === 0) return set;
  const whole = FieldSet.of(...converted);
  return set.recursiveDifference(whole).union(whole);
}
