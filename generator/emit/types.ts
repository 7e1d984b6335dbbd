// TypeScript types of every definition: generated/<fileId>/types.ts, one interface (or alias) per definition.
import type { SchemaNode } from "../schema/model.js";
import type { LoadedFile, SchemaSet } from "../schema/schema-set.js";
import { type Emitter, type GeneratedFile, generatedHeader } from "./emitter.js";
import { apiVersionOf, fileAlias, propertyKey, relativeImport } from "./naming.js";

/**
 * meta.k8s.io kinds (Status, DeleteOptions, WatchEvent, …) travel under every group's apiVersion and as plain "v1",
 * so their apiVersion stays a string.
 */
const sharedKindsGroup = "meta.k8s.io";

const int64Note = "// int64 fields are typed number: like every JSON client, values beyond 2^53 lose precision.\n";

export function typesPath(fileId: string): string {
  return `${fileId}/types.ts`;
}

class FileContext {
  readonly imports = new Set<string>();
  usesInt64 = false;

  constructor(
    readonly set: SchemaSet,
    readonly file: LoadedFile,
  ) {}

  refType(ref: string): string {
    const target = this.set.resolveRef(this.file.id, ref);
    if (target.fileId === this.file.id) return target.name;
    this.imports.add(target.fileId);
    return `${fileAlias(target.fileId)}.${target.name}`;
  }
}

function union(types: string[]): string {
  return [...new Set(types)].join(" | ");
}

const anyObject = "{ [key: string]: unknown }";

function typeOf(node: SchemaNode, ctx: FileContext, indent: string): string {
  const base = baseTypeOf(node, ctx, indent);
  return node.nullable ? `${base} | null` : base;
}

function baseTypeOf(node: SchemaNode, ctx: FileContext, indent: string): string {
  if (node.$ref) return ctx.refType(node.$ref);
  if (node["x-kubernetes-int-or-string"]) return "number | string";
  if (node.enum) return union(node.enum.map((v) => JSON.stringify(v)));
  const alternatives = node.oneOf ?? node.anyOf;
  if (alternatives) return union(alternatives.map((alt) => typeOf(alt, ctx, indent)));
  switch (node.type) {
    case "string":
      return "string";
    case "integer":
      if (node.format === "int64") ctx.usesInt64 = true;
      return "number";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "array": {
      const item = node.items ? typeOf(node.items, ctx, indent) : "unknown";
      return /[ |]/.test(item) && !item.startsWith("{") ? `(${item})[]` : `${item}[]`;
    }
    case "object":
      return objectType(node, ctx, indent);
    default:
      return node["x-kubernetes-preserve-unknown-fields"] ? anyObject : "unknown";
  }
}

function hasProperties(node: SchemaNode): node is SchemaNode & { properties: Record<string, SchemaNode> } {
  return node.properties !== undefined && Object.keys(node.properties).length > 0;
}

function objectType(node: SchemaNode, ctx: FileContext, indent: string): string {
  if (hasProperties(node)) return `{\n${members(node, ctx, `${indent}  `, {})}${indent}}`;
  if (typeof node.additionalProperties === "object") {
    return `{ [key: string]: ${typeOf(node.additionalProperties, ctx, indent)} }`;
  }
  return anyObject;
}

/** Literal types replacing the schema's `apiVersion` / `kind` strings on kinds and list kinds. */
type Literals = Record<string, string>;

function members(node: SchemaNode, ctx: FileContext, indent: string, literals: Literals): string {
  const required = new Set(node.required ?? []);
  let out = "";
  for (const [name, prop] of Object.entries(node.properties ?? {})) {
    const literal = literals[name];
    const type = literal !== undefined ? JSON.stringify(literal) : typeOf(prop, ctx, indent);
    const optional = required.has(name) ? "" : "?";
    const note = prop.format === "byte" ? " // base64" : "";
    out += `${indent}${propertyKey(name)}${optional}: ${type};${note}\n`;
  }
  return out;
}

function literalsByDefinition(file: LoadedFile): Map<string, Literals> {
  const out = new Map<string, Literals>();
  const { group, version } = file.file;
  if (group === undefined || version === undefined) return out;
  for (const entry of file.file.kinds ?? []) {
    for (const kind of [entry.kind, entry.listKind]) {
      if (kind === undefined) continue;
      out.set(kind, group === sharedKindsGroup ? { kind } : { apiVersion: apiVersionOf(group, version), kind });
    }
  }
  return out;
}

function definitionSource(name: string, def: SchemaNode, ctx: FileContext, literals: Literals | undefined): string {
  if (def.type === "object" && hasProperties(def) && !def.$ref) {
    return `export interface ${name} {\n${members(def, ctx, "  ", literals ?? {})}}\n`;
  }
  return `export type ${name} = ${typeOf(def, ctx, "")};\n`;
}

function emitFile(set: SchemaSet, file: LoadedFile): GeneratedFile {
  const ctx = new FileContext(set, file);
  const literals = literalsByDefinition(file);
  const body = Object.entries(file.file.definitions)
    .map(([name, def]) => definitionSource(name, def, ctx, literals.get(name)))
    .join("\n");
  const path = typesPath(file.id);
  const imports = [...ctx.imports]
    .sort()
    .map((id) => `import type * as ${fileAlias(id)} from "${relativeImport(path, typesPath(id))}";\n`)
    .join("");
  const head = generatedHeader([file.path]) + (ctx.usesInt64 ? int64Note : "");
  return { path, content: `${head}${imports}\n${body}` };
}

export const typesEmitter: Emitter = {
  name: "types",
  emit: (set) => ({ files: set.files.map((file) => emitFile(set, file)) }),
};
