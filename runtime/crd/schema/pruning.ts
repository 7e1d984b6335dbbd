// Pruning of a custom resource as the apiextensions server's decoder does it on every write and read
// (unstructuredSchemaCoercer): root metadata cut down to ObjectMeta, fields the schema does not declare
// dropped unless x-kubernetes-preserve-unknown-fields (apiVersion, kind and metadata of the root and of
// embedded resources kept), null values of non-nullable fields without a default dropped, and embedded
// resources' metadata cut down to ObjectMeta. The dropped paths come back in kube's order for strict field
// validation: root metadata first, then the pruned fields sorted, then embedded metadata sorted.

import { child, index, key } from "../../errors/field-path.js";
import { isJsonObject, type JsonObject } from "../../object/json-object.js";
import { pruneObjectMeta } from "./object-meta-fields.js";
import { entrySchema, type SchemaNode } from "./schema-node.js";

const typeAndObjectMeta = new Set(["apiVersion", "kind", "metadata"]);

function keyPath(parent: string, name: string): string {
  return parent === "" ? name : `${parent}.${name}`;
}

/** A declared entry whose null value kube drops: its schema is neither nullable nor defaulted. */
function droppableNull(value: unknown, schema: SchemaNode | null | undefined): boolean {
  return value === null && schema !== null && schema !== undefined && !schema.nullable && !schema.hasDefault;
}

class Pruner {
  readonly removed: string[] = [];

  /** `embedded` marks a resource root: the root itself, or an x-kubernetes-embedded-resource. */
  prune(x: unknown, s: SchemaNode | null | undefined, path: string, embedded = s?.embeddedResource === true): void {
    if (s?.preserveUnknownFields === true) {
      this.keepUnknown(x, s, path, embedded);
      return;
    }
    if (Array.isArray(x)) {
      x.forEach((item, i) => {
        this.prune(item, s?.items, `${path}[${i}]`);
      });
      return;
    }
    if (!isJsonObject(x)) return;
    for (const k of Object.keys(x)) {
      const schema = s ? entrySchema(s, k) : undefined;
      if (droppableNull(x[k], schema)) delete x[k];
      else if (embedded && typeAndObjectMeta.has(k)) continue;
      else if (schema !== undefined) this.prune(x[k], schema, keyPath(path, k));
      else {
        if (!typeAndObjectMeta.has(k) || path !== "") this.removed.push(keyPath(path, k));
        delete x[k];
      }
    }
  }

  /** Below x-kubernetes-preserve-unknown-fields: declared fields are still pruned, unknown ones kept. */
  private keepUnknown(x: unknown, s: SchemaNode, path: string, embedded: boolean): void {
    if (Array.isArray(x)) {
      for (const [i, item] of x.entries()) this.keepUnknownItem(item, s.items, `${path}[${i}]`);
      return;
    }
    if (!isJsonObject(x) || (s.properties.size === 0 && !s.additionalProperties)) return;
    for (const k of Object.keys(x)) {
      const schema = entrySchema(s, k);
      if (droppableNull(x[k], schema)) delete x[k];
      else if (embedded && typeAndObjectMeta.has(k)) continue;
      else if (schema !== undefined) this.prune(x[k], schema, keyPath(path, k));
    }
  }

  private keepUnknownItem(x: unknown, s: SchemaNode | undefined, path: string): void {
    if (s !== undefined) this.keepUnknown(x, s, path, s.embeddedResource);
  }
}

/** Cuts embedded resources' metadata down to ObjectMeta; paths as field.Path prints them (`spec.map[k]`). */
function coerceEmbedded(x: unknown, s: SchemaNode | null | undefined, path: string, removed: string[]): void {
  if (!s?.embeddedBelow) return;
  if (Array.isArray(x)) {
    x.forEach((item, i) => {
      coerceEmbedded(item, s.items, index(path, i), removed);
    });
    return;
  }
  if (!isJsonObject(x)) return;
  if (s.embeddedResource && isJsonObject(x.metadata)) embeddedMetadata(x.metadata, child(path, "metadata"), removed);
  for (const [k, v] of Object.entries(x)) {
    const prop = s.properties.get(k);
    if (prop !== undefined) coerceEmbedded(v, prop, child(path, k), removed);
    else if (s.additionalProperties) coerceEmbedded(v, s.additionalProperties, key(path, k), removed);
  }
}

function embeddedMetadata(metadata: JsonObject, path: string, removed: string[]): void {
  pruneObjectMeta(metadata, path, removed);
  // Round-tripped through ObjectMeta, a zero creation time is not written back in an embedded object.
  if (metadata.creationTimestamp === null) delete metadata.creationTimestamp;
}

/** Prunes `obj` in place; returns the dropped paths as strict field validation reports them. */
export function pruneCustomResource(obj: unknown, root: SchemaNode): string[] {
  if (!isJsonObject(obj)) return [];
  const metaRemoved: string[] = [];
  if (isJsonObject(obj.metadata)) pruneObjectMeta(obj.metadata, "metadata", metaRemoved);
  const pruner = new Pruner();
  pruner.prune(obj, root, "", true);
  const embeddedRemoved: string[] = [];
  coerceEmbedded(obj, root, "", embeddedRemoved);
  return [...metaRemoved, ...pruner.removed.sort(), ...embeddedRemoved.sort()];
}
