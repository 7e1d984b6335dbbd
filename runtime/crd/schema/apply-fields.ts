// The field table server-side apply walks custom resources with, built from a CRD version's schema the
// way kube-openapi's schemaconv reads it: objects with properties are structs (atomic with
// x-kubernetes-map-type: atomic), additionalProperties objects are maps, lists carry their list type
// (atomic when unmarked, kube's default for CRDs) and map keys, x-kubernetes-preserve-unknown-fields and
// untyped values are deduced from the value, int-or-string is its own scalar, and metadata (of the root
// and of embedded resources) is the built-in ObjectMeta. The generated table is copied with the custom
// definitions appended, so that built-in indices (ObjectMeta's) stay valid.

import { fieldTable } from "../../../generated/fields.js";
import type { ManagedSchema } from "../../apply/managed-schema.js";
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

  node(s: SchemaNode | null | undefined, name: string): FieldNode {
    if (!s || s.preserveUnknownFields) return "any";
    if (s.intOrString) return "int-or-string";
    if (s.type === "array") {
      const listType = s.listType ?? "atomic";
      return {
        list: this.node(s.items, `${name}[]`),
        listType,
        ...(listType === "map" ? { keys: s.listMapKeys } : {}),
      };
    }
    if (s.type !== "object") return (s.type !== undefined ? scalars[s.type] : undefined) ?? "any";
    if (s.properties.size === 0 && s.additionalProperties !== undefined && !s.embeddedResource) {
      return {
        map: this.node(s.additionalProperties, `${name}[]`),
        ...(s.mapType !== undefined ? { mapType: s.mapType } : {}),
      };
    }
    return this.struct(s, name, s.embeddedResource);
  }

  /** A struct definition; a resource root (the kind, or an embedded resource) has type and object metadata. */
  struct(s: SchemaNode, name: string, resourceRoot: boolean): number {
    const fields: Record<string, FieldNode> = {};
    const defaults: Record<string, unknown> = {};
    for (const [field, prop] of s.properties) {
      fields[field] = this.node(prop, name === "" ? field : `${name}.${field}`);
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
  const rootIndex = builder.struct(root, "", true);
  const table: FieldTable = { kinds: fieldTable.kinds, definitions: builder.definitions };
  return { table, root: rootIndex };
}
