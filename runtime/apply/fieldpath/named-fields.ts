// A field set with every struct field on the way to its leaves made a member too (structured-merge-diff's
// EnsureNamedFieldsAreMembers), so that removing the set removes an emptied optional struct along with the
// fields it held. Map entries, list items and a struct's undeclared fields on the way are not added: only
// declared struct fields are named.

import { declaresField, fieldType, type ManagedSchema, type SchemaType } from "../typed/managed-schema.js";
import { FieldSet } from "./field-set.js";
import type { PathElement } from "./path-element.js";

function childType(schema: ManagedSchema, type: SchemaType | undefined, pe: PathElement): SchemaType | undefined {
  if (type === undefined) return undefined;
  if ("field" in pe) {
    if (type.kind === "struct") return fieldType(schema, type, pe.field);
    return type.kind === "map" ? type.element : undefined;
  }
  return "key" in pe && type.kind === "list" ? type.element : undefined;
}

export function withNamedFieldsAsMembers(schema: ManagedSchema, type: SchemaType | undefined, set: FieldSet): FieldSet {
  const named = new FieldSet([...set.members]);
  for (const c of set.children) {
    if (type?.kind === "struct" && "field" in c.element && declaresField(schema, type, c.element.field)) {
      named.addMember(c.element);
    }
  }
  return new FieldSet(
    [...named.members],
    set.children.map((c) => ({
      element: c.element,
      set: withNamedFieldsAsMembers(schema, childType(schema, type, c.element), c.set),
    })),
  );
}
