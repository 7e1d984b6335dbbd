// The field table server-side apply walks custom resources with, built from a CRD version's schema the
// way kube-openapi's schemaconv reads it: objects with properties are structs (atomic with
// x-kubernetes-map-type: atomic), objects without are maps (of their additionalProperties, else of values
// deduced from the value), lists carry their list type (atomic when unmarked, kube's default for CRDs) and
// map keys, untyped values are deduced from the value, int-or-string is its own scalar, and metadata (of
// the root and of embedded resources) is the built-in ObjectMeta. x-kubernetes-preserve-unknown-fields
// opts a node and every object below it into keeping undeclared fields, deduced from their value
// (`otherFields: "any"`), while declared properties keep their markers. The generated table is copied with
// the custom definitions appended, so that built-in indices (ObjectMeta's) stay valid.

import { fieldTable } from "../../../generated/fields.js";
import type { ManagedSchema } from "../../apply/typed/managed-schema.js";
import type { FieldDefinition, FieldNode, FieldTable } from "../../codecs/field-table.js";
import { objectMetaDefinition } from "./object-meta-fields.js";
import type { SchemaNode } from "./schema-node.js";

const scalars: Readonly<Record<string, FieldNode>> = {
  string: "string",
  integer: "int64",
  number: "float64",
  boolean: "bool",
};

class TableBuilder {
  readonly definitions: FieldDefinition[] = [...fieldTable.definitions];

  /** `preserving`: an ancestor keeps unknown fields, which schemaconv passes down to inlined schemas. */
  node(s: SchemaNode | null | undefined, name: string, preserving: boolean): FieldNode {
    if (!s) return "any";
    if (s.intOrString) return "int-or-string";
    const keeps = preserving || s.preserveUnknownFields;
    if (s.type === "array") {
      const listType = s.listType ?? "atomic";
      return {
        list: this.node(s.items, `${name}[]`, keeps),
        listType,
        ...(listType === "map" ? { keys: s.listMapKeys } : {}),
      };
    }
    if (s.type !== "object") return (s.type !== undefined ? scalars[s.type] : undefined) ?? "any";
    if (s.properties.size === 0 && !s.embeddedResource) {
      // An object without properties is a free-form map: of its additionalProperties, else deduced.
      return {
        map: s.additionalProperties === undefined ? "any" : this.node(s.additionalProperties, `${name}[]`, keeps),
        ...(s.mapType !== undefined ? { mapType: s.mapType } : {}),
      };
    }
    return this.struct(s, name, s.embeddedResource, keeps);
  }

  /**
   * A struct definition; a resource root (the kind, or an embedded resource) has type and object metadata,
   * a struct that keeps unknown fields deduces them.
   */
  struct(s: SchemaNode, name: string, resourceRoot: boolean, keepsUnknown: boolean): number {
    const fields: Record<string, FieldNode> = {};
    const defaults: Record<string, unknown> = {};
    for (const [field, prop] of s.properties) {
      fields[field] = this.node(prop, name === "" ? field : `${name}.${field}`, keepsUnknown);
      if (prop.hasDefault) defaults[field] = prop.default;
    }
    if (resourceRoot) {
      fields.apiVersion = "string";
      fields.kind = "string";
      fields.metadata = objectMetaDefinition;
    }
    const definition: FieldDefinition = {
      name: name === "" ? "CustomResource" : name,
      pkg: "",
      fields,
      ...(keepsUnknown ? { otherFields: "any" as const } : {}),
      ...(s.mapType === "atomic" ? { atomic: true as const } : {}),
      ...(Object.keys(defaults).length > 0 ? { defaults } : {}),
    };
    this.definitions.push(definition);
    return this.definitions.length - 1;
  }
}

/** The apply schema of a custom resource whose root schema is `root`. */
export function managedSchemaOf(root: SchemaNode): ManagedSchema {
  const builder = new TableBuilder();
  const rootIndex = builder.struct(root, "", true, root.preserveUnknownFields);
  const table: FieldTable = { kinds: fieldTable.kinds, definitions: builder.definitions };
  return { table, root: rootIndex };
}
