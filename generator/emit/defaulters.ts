// Defaulters: `generated/<fileId>/defaulters.ts` applies schema `default` values in place, top down,
// only where a field is absent (or null), then descends into objects, lists and maps. A `default: {}`
// creates the object so the defaults below it cascade, as Go's non-pointer structs always exist.
// Scalar defaults equal to the type's zero value ("", 0, false) are not written: upstream schemas
// carry them only to mirror Go zero values, which kube-apiserver omits when it encodes an object.
// Every kind gets a `default<Kind>`, a no-op when nothing below it has a default.
import type { SchemaNode } from "../schema/model.js";
import type { DefinitionId, SchemaSet } from "../schema/schema-set.js";
import { type EmitResult, type Emitter, type GeneratedFile, generatedHeader } from "./emitter.js";
import { importFrom, moduleAlias, propertyAccess, tsLiteral } from "./validators.js";

function isZero(value: unknown): boolean {
  return value === "" || value === 0 || value === false;
}

function key(id: DefinitionId): string {
  return `${id.fileId}#${id.name}`;
}

/** Which definitions have a default somewhere below them, by fixed point over the (recursive) ref graph. */
function definitionsWithDefaults(set: SchemaSet): Set<string> {
  const needs = new Set<string>();
  const hasWork = (fileId: string, node: SchemaNode): boolean => {
    if (node.$ref !== undefined) return needs.has(key(set.resolveRef(fileId, node.$ref)));
    for (const prop of Object.values(node.properties ?? {})) {
      if ((prop.default !== undefined && !isZero(prop.default)) || hasWork(fileId, prop)) return true;
    }
    if (node.items !== undefined && hasWork(fileId, node.items)) return true;
    return typeof node.additionalProperties === "object" && hasWork(fileId, node.additionalProperties);
  };
  let changed = true;
  while (changed) {
    changed = false;
    for (const file of set.files) {
      for (const [name, def] of Object.entries(file.file.definitions)) {
        const k = key({ fileId: file.id, name });
        if (!needs.has(k) && hasWork(file.id, def)) {
          needs.add(k);
          changed = true;
        }
      }
    }
  }
  return needs;
}

class FileEmitter {
  readonly imports = new Set<string>();
  readonly helpers = new Set<string>();

  constructor(
    private readonly set: SchemaSet,
    private readonly fileId: string,
    private readonly needs: Set<string>,
  ) {}

  /** Statements applying the defaults below `node` to the value `expr`; empty when there are none. */
  apply(node: SchemaNode, expr: string, indent: string, depth: number): string[] {
    if (node.$ref !== undefined) {
      const id = this.set.resolveRef(this.fileId, node.$ref);
      if (!this.needs.has(key(id))) return [];
      if (id.fileId === this.fileId) return [`${indent}default${id.name}(${expr});`];
      this.imports.add(id.fileId);
      return [`${indent}${moduleAlias(id.fileId)}.default${id.name}(${expr});`];
    }
    if (node.items !== undefined) return this.loop("listItems", node.items, expr, indent, depth);
    if (typeof node.additionalProperties === "object") {
      return this.loop("mapValues", node.additionalProperties, expr, indent, depth);
    }
    if (node.properties === undefined) return [];
    const obj = `o${depth}`;
    const body = this.objectBody(node, obj, `${indent}  `, depth + 1);
    if (body.length === 0) return [];
    this.helpers.add("asObject");
    return [
      `${indent}{`,
      `${indent}  const ${obj} = asObject(${expr});`,
      `${indent}  if (${obj} !== undefined) {`,
      ...body.map((l) => `  ${l}`),
      `${indent}  }`,
      `${indent}}`,
    ];
  }

  private loop(helper: string, element: SchemaNode, expr: string, indent: string, depth: number): string[] {
    const item = `item${depth === 0 ? "" : depth}`;
    const body = this.apply(element, item, `${indent}  `, depth + 1);
    if (body.length === 0) return [];
    this.helpers.add(helper);
    const head = `${indent}for (const ${item} of ${helper}(${expr}))`;
    const [only] = body;
    if (body.length === 1 && only !== undefined) return [`${head} ${only.trimStart()}`];
    return [`${head} {`, ...body, `${indent}}`];
  }

  /** Own defaults first (top down), then the defaults of each property's value. */
  objectBody(node: SchemaNode, objVar: string, indent: string, depth: number): string[] {
    const lines: string[] = [];
    for (const [name, prop] of Object.entries(node.properties ?? {})) {
      const access = propertyAccess(objVar, name);
      if (prop.default !== undefined && !isZero(prop.default)) {
        const target = access.startsWith("(") ? `${objVar}[${JSON.stringify(name)}]` : access;
        lines.push(`${indent}${target} ??= ${tsLiteral(prop.default)};`);
      }
      lines.push(...this.apply(prop, access, indent, depth));
    }
    return lines;
  }

  definition(name: string, node: SchemaNode): string {
    const head = `export function default${name}(value: unknown): void {`;
    if (!this.needs.has(key({ fileId: this.fileId, name }))) {
      return `export function default${name}(_value: unknown): void {\n  // Nothing below ${name} has a default.\n}`;
    }
    if (node.properties !== undefined && node.$ref === undefined) {
      this.helpers.add("asObject");
      const body = this.objectBody(node, "obj", "  ", 0);
      return [head, "  const obj = asObject(value);", "  if (obj === undefined) return;", ...body, "}"].join("\n");
    }
    return [head, ...this.apply(node, "value", "  ", 0), "}"].join("\n");
  }
}

function emitFile(set: SchemaSet, fileId: string, needs: Set<string>): GeneratedFile | undefined {
  const loaded = set.file(fileId);
  const kinds = new Set((loaded.file.kinds ?? []).map((k) => k.kind));
  const names = Object.keys(loaded.file.definitions)
    .filter((name) => kinds.has(name) || needs.has(key({ fileId, name })))
    .sort();
  if (names.length === 0) return undefined;
  const emitter = new FileEmitter(set, fileId, needs);
  const functions = names.map((name) => emitter.definition(name, loaded.file.definitions[name] as SchemaNode));
  const imports: string[] = [];
  if (emitter.helpers.size > 0) {
    const helpers = [...emitter.helpers].sort().join(", ");
    imports.push(`import { ${helpers} } from "${importFrom(fileId, "runtime/validation/walk.js")}";`);
  }
  for (const id of [...emitter.imports].sort()) {
    imports.push(`import * as ${moduleAlias(id)} from "${importFrom(fileId, `generated/${id}/defaulters.js`)}";`);
  }
  const head = imports.length === 0 ? "" : `${imports.join("\n")}\n\n`;
  return {
    path: `${fileId}/defaulters.ts`,
    content: `${generatedHeader([loaded.path])}${head}${functions.join("\n\n")}\n`,
  };
}

export const defaultersEmitter: Emitter = {
  name: "defaulters",
  emit(set: SchemaSet): EmitResult {
    const needs = definitionsWithDefaults(set);
    const files: GeneratedFile[] = [];
    for (const f of set.files) {
      const file = emitFile(set, f.id, needs);
      if (file !== undefined) files.push(file);
    }
    return { files };
  },
};
