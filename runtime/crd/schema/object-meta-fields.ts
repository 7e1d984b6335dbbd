// ObjectMeta as kube decodes it: the generated field table's definition, which custom resources' metadata
// (at the root and in embedded resources) is cut down to, as the apiextensions server round-trips it
// through metav1.ObjectMeta. Unknown fields are reported as its strict decoding names them
// (`metadata.foo`, `metadata.ownerReferences[0].bar`), keys in sorted order as Go marshals a map.

import { fieldTable } from "../../../generated/fields.js";
import type { FieldNode, FieldTable } from "../../codecs/field-table.js";
import { isJsonObject } from "../../object/json-object.js";

function objectMetaIndex(table: FieldTable): number {
  const partial = table.kinds["meta.k8s.io/v1/PartialObjectMetadata"];
  const node = partial === undefined ? undefined : table.definitions[partial]?.fields.metadata;
  if (typeof node !== "number") throw new Error("generated field table lacks ObjectMeta");
  return node;
}

/** The generated table's ObjectMeta definition. */
export const objectMetaDefinition: number = objectMetaIndex(fieldTable);

function sortedKeys(obj: Record<string, unknown>): string[] {
  return Object.keys(obj).sort();
}

function pruneNode(value: unknown, node: FieldNode, path: string, removed: string[]): void {
  if (typeof node === "number") {
    const def = fieldTable.definitions[node];
    if (def === undefined || !isJsonObject(value)) return;
    for (const key of sortedKeys(value)) {
      const field = Object.hasOwn(def.fields, key) ? def.fields[key] : undefined;
      if (field === undefined) {
        removed.push(`${path}.${key}`);
        delete value[key];
      } else pruneNode(value[key], field, `${path}.${key}`, removed);
    }
  } else if (typeof node === "string") {
    return;
  } else if ("list" in node) {
    if (Array.isArray(value))
      for (const [i, item] of value.entries()) pruneNode(item, node.list, `${path}[${i}]`, removed);
  } else if (isJsonObject(value)) {
    for (const key of sortedKeys(value)) pruneNode(value[key], node.map, `${path}.${key}`, removed);
  }
}

/** Drops the fields ObjectMeta does not have from `metadata` (in place); appends their paths below `path`. */
export function pruneObjectMeta(metadata: unknown, path: string, removed: string[]): void {
  pruneNode(metadata, objectMetaDefinition, path, removed);
}
