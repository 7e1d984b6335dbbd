// SchemaSet definitions → OpenAPI v3 component schemas, shaped as kube-apiserver publishes them: refs to
// `#/components/schemas/<openapi name>`, a `$ref` with siblings wrapped as `allOf: [{$ref}]`, kapi's own
// `x-kapi-*` markers dropped, and `x-kubernetes-group-version-kind` on kind and list kind definitions.
import { v3RefPrefix } from "../../runtime/openapi/openapi-input.js";
import { mapSchema, type Schema } from "../../runtime/openapi/schema-refs.js";
import type { SchemaNode } from "../schema/model.js";
import type { SchemaSet } from "../schema/schema-set.js";

/** kube registers the meta.k8s.io kinds in the core group's version. */
function gvkGroup(group: string): string {
  return group === "meta.k8s.io" ? "" : group;
}

/** Group/version/kinds declared for each definition, keyed by OpenAPI name. */
function declaredKinds(set: SchemaSet): Map<string, { group: string; version: string; kind: string }[]> {
  const out = new Map<string, { group: string; version: string; kind: string }[]>();
  for (const k of set.kinds()) {
    const group = gvkGroup(k.gvk.group);
    for (const kind of [k.entry.kind, k.entry.listKind]) {
      if (!kind) continue;
      const name = set.openapiName({ fileId: k.file.id, name: kind });
      out.set(name, [...(out.get(name) ?? []), { group, kind, version: k.gvk.version }]);
    }
  }
  return out;
}

export function componentSchemas(set: SchemaSet): Record<string, Schema> {
  const kinds = declaredKinds(set);
  const out: Record<string, Schema> = {};
  for (const file of set.files) {
    for (const [name, def] of Object.entries(file.file.definitions ?? {})) {
      const openapiName = set.openapiName({ fileId: file.id, name });
      const schema = convert(set, file.id, def);
      const gvks = kinds.get(openapiName);
      out[openapiName] = gvks ? { ...schema, "x-kubernetes-group-version-kind": gvks } : schema;
    }
  }
  return out;
}

function convert(set: SchemaSet, fileId: string, def: SchemaNode): Schema {
  return mapSchema(def as Schema, (node) => {
    const out: Schema = {};
    for (const [key, value] of Object.entries(node)) if (!key.startsWith("x-kapi-")) out[key] = value;
    if (typeof out.$ref !== "string") return out;
    const ref = { $ref: `${v3RefPrefix}${set.openapiName(set.resolveRef(fileId, out.$ref))}` };
    const { $ref: _, ...siblings } = out;
    return Object.keys(siblings).length === 0 ? ref : { allOf: [ref], ...siblings };
  });
}
