// Field knowledge for request decoding: `generated/fields.ts` lists every struct definition a kind reaches,
// with its property names and what each holds (another struct, a scalar, a list, a map, or anything), so
// the runtime can drop unknown fields, notice duplicate keys and refuse wrongly typed values as kube's typed
// decoder does (runtime/codecs/unknown-fields.ts). One table, definitions by index, so recursive types
// (JSONSchemaProps) and types shared across files cost one entry each. The merge markers ride along
// (list and map types, list map keys, atomic structs, patch strategies and merge keys) for strategic
// merge patch and server-side apply.
import type { SchemaNode } from "../schema/model.js";
import type { SchemaSet } from "../schema/schema-set.js";
import { type EmitResult, type Emitter, generatedHeader } from "./emitter.js";
import { tsLiteral } from "./ts-literal.js";
import { validationKey } from "./validators.js";

type FieldNode =
  | number
  | string
  | { list: FieldNode; listType?: string; keys?: string[] }
  | { map: FieldNode; mapType?: string };

interface PatchMarkers {
  strategy?: string;
  mergeKey?: string;
}

interface Entry {
  name: string;
  pkg: string;
  fields: Record<string, FieldNode>;
  atomic?: true;
  patch?: Record<string, PatchMarkers>;
  defaults?: Record<string, unknown>;
  present?: Record<string, null | Record<string, never>>;
}

interface Pending {
  index: number;
  fileId: string;
  node: SchemaNode;
}

/**
 * A definition decoded into a Go struct: it has properties, or it is an object whose wire message is
 * declared empty (`x-kapi-proto-message: []`, a struct without fields, where every key is unknown).
 * Other property-less objects (RawExtension, FieldsV1) carry opaque JSON.
 */
function isStruct(node: SchemaNode): boolean {
  if (node["x-kubernetes-preserve-unknown-fields"] === true) return false;
  if (node.properties !== undefined) return true;
  const message = node["x-kapi-proto-message"];
  return node.type === "object" && node.additionalProperties === undefined && message?.length === 0;
}

/** The last segment of a schema file's id is the Go package name errors print: "apps/v1" → "v1". */
function packageOf(fileId: string): string {
  return fileId.slice(fileId.lastIndexOf("/") + 1);
}

/** A scalar taking either of two JSON types; number-or-string is how kube's OpenAPI spells resource.Quantity. */
function unionOf(branches: readonly SchemaNode[]): FieldNode {
  const types = [...new Set(branches.map((b) => b.type))].sort().join("|");
  if (types === "integer|string") return "int-or-string";
  if (types === "number|string") return "quantity";
  return "any";
}

function withListMarkers(node: { list: FieldNode }, schema: SchemaNode): FieldNode {
  const listType = schema["x-kubernetes-list-type"];
  const keys = schema["x-kubernetes-list-map-keys"];
  return {
    ...node,
    ...(listType !== undefined ? { listType } : {}),
    ...(keys !== undefined ? { keys } : {}),
  };
}

function withMapMarkers(node: { map: FieldNode }, schema: SchemaNode): FieldNode {
  const mapType = schema["x-kubernetes-map-type"];
  return mapType === undefined ? node : { ...node, mapType };
}

/** The patch strategy and merge key of each property that declares them. */
function patchMarkersOf(node: SchemaNode): Record<string, PatchMarkers> | undefined {
  let out: Record<string, PatchMarkers> | undefined;
  for (const [name, prop] of Object.entries(node.properties ?? {})) {
    const strategy = prop["x-kubernetes-patch-strategy"];
    const mergeKey = prop["x-kubernetes-patch-merge-key"];
    if (strategy === undefined && mergeKey === undefined) continue;
    out ??= {};
    out[name] = { ...(strategy !== undefined ? { strategy } : {}), ...(mergeKey !== undefined ? { mergeKey } : {}) };
  }
  return out;
}

/** Each property's schema default. */
function defaultsOf(node: SchemaNode): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const [name, prop] of Object.entries(node.properties ?? {})) {
    if (prop.default === undefined) continue;
    out ??= {};
    out[name] = prop.default;
  }
  return out;
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

/** What Go serializes whatever JSON says: required properties, and non-pointer structs (`default: {}`). */
function presentOf(
  fields: Record<string, FieldNode>,
  node: SchemaNode,
): Record<string, null | Record<string, never>> | undefined {
  let out: Record<string, null | Record<string, never>> | undefined;
  for (const name of node.required ?? []) {
    out ??= {};
    out[name] = null;
  }
  for (const [name, prop] of Object.entries(node.properties ?? {})) {
    if (typeof fields[name] !== "number" || !isEmptyObject(prop.default) || prop["x-kapi-go-pointer"] === true)
      continue;
    out ??= {};
    out[name] = {};
  }
  return out;
}

class TableBuilder {
  readonly entries: Entry[] = [];
  readonly sources = new Set<string>();
  private readonly indexOf = new Map<SchemaNode, number>();
  private readonly pending: Pending[] = [];

  constructor(private readonly set: SchemaSet) {}

  /** The index of a struct, registered now and filled in by `drain`, so recursive types terminate. */
  struct(fileId: string, name: string, node: SchemaNode): number {
    const known = this.indexOf.get(node);
    if (known !== undefined) return known;
    const index = this.entries.length;
    this.indexOf.set(node, index);
    this.entries.push({ name, pkg: packageOf(fileId), fields: {} });
    this.pending.push({ index, fileId, node });
    this.sources.add(this.set.file(fileId).path);
    return index;
  }

  drain(): void {
    for (let p = this.pending.shift(); p !== undefined; p = this.pending.shift()) {
      const entry = this.entries[p.index] as Entry;
      entry.fields = this.fields(p.fileId, p.node, entry.name);
      if (p.node["x-kubernetes-map-type"] === "atomic") entry.atomic = true;
      const patch = patchMarkersOf(p.node);
      if (patch !== undefined) entry.patch = patch;
      const defaults = defaultsOf(p.node);
      if (defaults !== undefined) entry.defaults = defaults;
      const present = presentOf(entry.fields, p.node);
      if (present !== undefined) entry.present = present;
    }
  }

  private fields(fileId: string, node: SchemaNode, owner: string): Record<string, FieldNode> {
    const out: Record<string, FieldNode> = {};
    if (node["x-kubernetes-embedded-resource"] === true) Object.assign(out, this.embeddedTypeMeta());
    for (const [name, prop] of Object.entries(node.properties ?? {})) out[name] = this.node(fileId, prop, owner);
    return out;
  }

  /** An embedded resource also carries apiVersion, kind and metadata, whether or not its schema lists them. */
  private embeddedTypeMeta(): Record<string, FieldNode> {
    const out: Record<string, FieldNode> = { apiVersion: "string", kind: "string" };
    const objectMeta = this.set.tryDefinition({ fileId: "meta/v1", name: "ObjectMeta" });
    if (objectMeta !== undefined) out.metadata = this.struct("meta/v1", "ObjectMeta", objectMeta);
    return out;
  }

  /** What a value of this schema holds; `owner` names inline structs after the definition they sit in. */
  node(fileId: string, schema: SchemaNode, owner: string): FieldNode {
    if (schema["x-kubernetes-preserve-unknown-fields"] === true) return "any";
    if (schema["x-kubernetes-int-or-string"] === true || schema.format === "int-or-string") return "int-or-string";
    if (schema.$ref !== undefined) {
      const id = this.set.resolveRef(fileId, schema.$ref);
      const def = this.set.definition(id);
      return isStruct(def) ? this.struct(id.fileId, id.name, def) : this.node(id.fileId, def, id.name);
    }
    const branches = schema.oneOf ?? schema.anyOf;
    if (branches !== undefined) return unionOf(branches);
    switch (schema.type) {
      case "string":
        if (schema.format === "duration") return "duration";
        return schema.format === "byte" ? "bytes" : "string";
      case "boolean":
        return "bool";
      case "integer":
        return schema.format === "int32" ? "int32" : "int64";
      case "number":
        return schema.format === "float" ? "float32" : "float64";
      case "array":
        return withListMarkers(
          { list: schema.items === undefined ? "any" : this.node(fileId, schema.items, owner) },
          schema,
        );
    }
    if (isStruct(schema)) return this.struct(fileId, owner, schema);
    if (typeof schema.additionalProperties === "object")
      return withMapMarkers({ map: this.node(fileId, schema.additionalProperties, owner) }, schema);
    if (schema.additionalProperties === true) return withMapMarkers({ map: "any" }, schema);
    return "any";
  }
}

export const fieldsEmitter: Emitter = {
  name: "fields",
  emit(set: SchemaSet): EmitResult {
    const builder = new TableBuilder(set);
    const kinds: Record<string, number> = {};
    const sorted = set
      .kinds()
      .map((k) => ({ k, key: validationKey(k.gvk.group, k.gvk.version, k.gvk.kind) }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const { k, key } of sorted) {
      const def = set.tryDefinition({ fileId: k.file.id, name: k.entry.kind });
      if (def !== undefined && isStruct(def)) kinds[key] = builder.struct(k.file.id, k.entry.kind, def);
    }
    builder.drain();
    const definitions = builder.entries.map((e, i) => `    /* ${i} */ ${tsLiteral(e, "    ")},\n`).join("");
    const content =
      `${generatedHeader([...builder.sources].sort())}` +
      `import type { FieldTable } from "../runtime/codecs/field-table.js";\n\n` +
      "export const fieldTable: FieldTable = {\n" +
      `  kinds: ${tsLiteral(kinds, "  ")},\n` +
      `  definitions: [\n${definitions}  ],\n` +
      "};\n";
    return { files: [{ path: "fields.ts", content }] };
  },
};
