// TypeScript types of custom resources from their CRDs' openAPIV3Schema: one module per group/version, an
// interface per kind and list kind, and one per nested object (named after its path: WidgetSpecPorts).

import { pascalCase } from "../emit/client.js";
import { generatedHeader } from "../emit/emitter.js";
import { apiVersionOf, propertyKey } from "../emit/naming.js";
import { type CrdManifest, CrdManifestError, type CrdSchema } from "./crd-manifest.js";

/** One kind of a group/version: its CRD and that version's schema. */
export interface CrdKindVersion {
  crd: CrdManifest;
  schema: CrdSchema | undefined;
}

/** ObjectMeta and ListMeta are imported under these names; no generated interface may take them. */
const metaNames = ["ListMeta", "ObjectMeta"];

function docComment(description: string | undefined, indent: string): string {
  if (description === undefined || description.trim() === "") return "";
  const lines = description.trim().replace(/\*\//g, "*\\/").split("\n");
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l === "" ? "" : ` ${l}`}\n`).join("")}${indent} */\n`;
}

function parenthesized(type: string): string {
  return /[ |]/.test(type) && !type.startsWith("{") ? `(${type})` : type;
}

class ModuleWriter {
  private readonly taken = new Set<string>(metaNames);
  private readonly declarations: string[] = [];

  reserve(name: string, where: string): void {
    if (this.taken.has(name)) throw new CrdManifestError(`${where}: the type name ${name} is taken twice`);
    this.taken.add(name);
  }

  /** `wanted`, or `wanted2`, `wanted3`… when a kind or another nested object has it already. */
  private unique(wanted: string): string {
    let name = wanted;
    for (let n = 2; this.taken.has(name); n++) name = `${wanted}${n}`;
    this.taken.add(name);
    return name;
  }

  /** Declares an interface; `members` runs after its slot is taken so that declarations read parent first. */
  declare(name: string, description: string | undefined, members: () => string): void {
    const slot = this.declarations.push("") - 1;
    const body = members();
    this.declarations[slot] = `${docComment(description, "")}export interface ${name} {\n${body}}\n`;
  }

  typeOf(schema: CrdSchema, name: string): string {
    const base = this.baseTypeOf(schema, name);
    return schema.nullable ? `${base} | null` : base;
  }

  private baseTypeOf(schema: CrdSchema, name: string): string {
    if (schema["x-kubernetes-int-or-string"]) return "number | string";
    if (schema.enum && schema.enum.length > 0)
      return [...new Set(schema.enum.map((v) => JSON.stringify(v)))].join(" | ");
    switch (schema.type) {
      case "string":
        return "string";
      case "integer":
      case "number":
        return "number";
      case "boolean":
        return "boolean";
      case "array":
        return schema.items ? `${parenthesized(this.typeOf(schema.items, name))}[]` : "unknown[]";
      case "object":
        return this.objectType(schema, name);
      default:
        // Without a type a structural schema allows any value (x-kubernetes-preserve-unknown-fields).
        return schema.properties ? this.objectType(schema, name) : "unknown";
    }
  }

  private objectType(schema: CrdSchema, name: string): string {
    const hasProperties = schema.properties !== undefined && Object.keys(schema.properties).length > 0;
    if (hasProperties || schema["x-kubernetes-embedded-resource"]) {
      const declared = this.unique(name);
      this.declare(declared, schema.description, () => this.members(schema, declared, {}));
      return declared;
    }
    if (typeof schema.additionalProperties === "object") {
      return `Record<string, ${this.typeOf(schema.additionalProperties, name)}>`;
    }
    return "Record<string, unknown>";
  }

  /** Property lines of an object schema; `fixed` replaces the types of some properties (apiVersion, kind). */
  members(schema: CrdSchema, owner: string, fixed: Record<string, string>): string {
    const required = new Set(schema.required ?? []);
    let properties: Record<string, CrdSchema> = { ...schema.properties };
    // An embedded resource carries apiVersion, kind and metadata whether its schema declares them or not.
    if (schema["x-kubernetes-embedded-resource"]) {
      properties = { apiVersion: {}, kind: {}, metadata: {}, ...properties };
      fixed = { apiVersion: "string", kind: "string", metadata: "ObjectMeta", ...fixed };
    }
    let out = "";
    for (const [key, prop] of Object.entries(properties)) {
      const type = fixed[key] ?? this.typeOf(prop, `${owner}${pascalCase(key)}`);
      out += `${docComment(prop.description, "  ")}  ${propertyKey(key)}${required.has(key) ? "" : "?"}: ${type};\n`;
    }
    if (schema["x-kubernetes-preserve-unknown-fields"]) out += "  [key: string]: unknown;\n";
    return out;
  }

  text(): string {
    return this.declarations.join("\n");
  }
}

function declareKind(writer: ModuleWriter, apiVersion: string, { crd, schema }: CrdKindVersion): void {
  const root: CrdSchema = schema ?? { type: "object", "x-kubernetes-preserve-unknown-fields": true };
  const properties = { apiVersion: {}, kind: {}, metadata: {}, ...root.properties };
  const fixed = {
    apiVersion: JSON.stringify(apiVersion),
    kind: JSON.stringify(crd.kind),
    metadata: "ObjectMeta",
  };
  writer.declare(crd.kind, root.description, () => writer.members({ ...root, properties }, crd.kind, fixed));
  writer.declare(
    crd.listKind,
    undefined,
    () =>
      `  apiVersion?: ${JSON.stringify(apiVersion)};\n  kind?: ${JSON.stringify(crd.listKind)};\n` +
      `  metadata?: ListMeta;\n  items: ${crd.kind}[];\n`,
  );
}

/**
 * The types module of one group/version. `metaModule` is the import specifier of a module exporting
 * ObjectMeta and ListMeta (the SDK package, or generated/meta/v1/types.js).
 */
export function crdTypesModule(group: string, version: string, kinds: CrdKindVersion[], metaModule: string): string {
  const writer = new ModuleWriter();
  const sorted = [...kinds].sort((a, b) => a.crd.kind.localeCompare(b.crd.kind));
  for (const { crd } of sorted) {
    const where = `${crd.source}: ${apiVersionOf(group, version)} ${crd.kind}`;
    writer.reserve(crd.kind, where);
    writer.reserve(crd.listKind, where);
  }
  for (const kind of sorted) declareKind(writer, apiVersionOf(group, version), kind);
  const sources = [...new Set(kinds.map((k) => k.crd.source))].sort();
  return `${generatedHeader(sources)}import type { ListMeta, ObjectMeta } from "${metaModule}";\n\n${writer.text()}`;
}
