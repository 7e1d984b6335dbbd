// kapi's own rules for schema files, checked before anything is emitted. Each problem is reported as
// `schemas/<file>.yaml: <location>: <message>`.

import { stabilityOf, versionNamePattern } from "../../runtime/registry/version-names.js";
import { cellNamePattern } from "../emit/printers.js";
import type { PrinterColumn, SchemaNode } from "../schema/model.js";
import { groupDir, type LoadedFile, type SchemaSet } from "../schema/schema-set.js";
import { celRuleProblems } from "./cel-rules.js";
import { validateOpenApi } from "./validate-openapi.js";

const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const kindName = /^[A-Z][A-Za-z0-9]*$/;
const propertyName = /^[$A-Za-z_][-A-Za-z0-9_]*$/;
const knownVerbs = new Set([
  "get",
  "list",
  "watch",
  "create",
  "update",
  "patch",
  "delete",
  "deletecollection",
  "proxy",
]);
const scalarTypes = new Set(["string", "integer", "number", "boolean"]);

class Problems {
  readonly list: string[] = [];
  add(file: LoadedFile, location: string, message: string): void {
    this.list.push(`${file.path}: ${location}: ${message}`);
  }
}

/** kapi's own rules, then OpenAPI validity of the composed document (validate-openapi.ts). */
export async function validateSchemaSet(set: SchemaSet): Promise<string[]> {
  const problems = new Problems();
  for (const file of set.files) {
    validateFileHeader(file, problems);
    validateKinds(set, file, problems);
    for (const [name, def] of Object.entries(file.file.definitions ?? {})) {
      if (!kindName.test(name)) problems.add(file, `definitions.${name}`, "definition names are CamelCase");
      validateNode(set, file, `definitions.${name}`, def, problems);
      validateProtobuf(set, file, name, def, problems);
    }
  }
  validateStorageVersions(set, problems);
  if (problems.list.length > 0) return problems.list;
  const rules = celRuleProblems(set);
  if (rules.length > 0) return rules;
  return validateOpenApi(set);
}

function validateFileHeader(file: LoadedFile, problems: Problems): void {
  const f = file.file;
  if (!f.definitions || typeof f.definitions !== "object") problems.add(file, "definitions", "required");
  if (!f.openapi?.prefix) problems.add(file, "openapi.prefix", "required");
  if ((f.group === undefined) !== (f.version === undefined)) {
    problems.add(file, "group", "group and version go together");
  }
  if (f.version === undefined) return;
  if (!versionNamePattern.test(f.version)) problems.add(file, "version", `${f.version} is not v<N>[alpha|beta<M>]`);
  const stability = stabilityOf(f.version);
  if (f.stability !== stability) problems.add(file, "stability", `must be ${stability} for ${f.version}`);
  if (f.group !== "" && f.group !== undefined && !dnsSubdomain.test(f.group)) {
    problems.add(file, "group", `${f.group} is not a DNS subdomain`);
  }
  const expected = `${groupDir(f.group ?? "")}/${f.version}`;
  if (file.id !== expected) problems.add(file, "group", `file must be schemas/${expected}.yaml`);
}

function validateKinds(set: SchemaSet, file: LoadedFile, problems: Problems): void {
  for (const [i, entry] of (file.file.kinds ?? []).entries()) {
    const at = `kinds[${i}]`;
    if (!kindName.test(entry.kind)) problems.add(file, `${at}.kind`, `${entry.kind} is not CamelCase`);
    const def = file.file.definitions?.[entry.kind];
    if (!def) {
      problems.add(file, `${at}.kind`, `no definition ${entry.kind}`);
      continue;
    }
    if (entry.listKind) {
      const list = file.file.definitions[entry.listKind];
      if (!list) problems.add(file, `${at}.listKind`, `no definition ${entry.listKind}`);
      else if (!list.properties?.items || !list.properties?.metadata) {
        problems.add(file, `${at}.listKind`, `${entry.listKind} needs metadata and items`);
      }
    }
    const r = entry.resource;
    if (!r) continue;
    const meta = def.properties?.metadata;
    if (!meta?.$ref || set.resolveRef(file.id, meta.$ref).name !== "ObjectMeta") {
      problems.add(file, `${at}.kind`, `served kind ${entry.kind} needs metadata: ObjectMeta`);
    }
    if (!entry.listKind && r.verbs.includes("list"))
      problems.add(file, `${at}.listKind`, `served kind ${entry.kind} needs a list kind`);
    if (!dnsLabel.test(r.plural))
      problems.add(file, `${at}.resource.plural`, `${r.plural} is not a lowercase DNS label`);
    if (!dnsLabel.test(r.singular)) {
      problems.add(file, `${at}.resource.singular`, `${r.singular} is not a lowercase DNS label`);
    }
    if (r.scope !== "Namespaced" && r.scope !== "Cluster") {
      problems.add(file, `${at}.resource.scope`, "must be Namespaced or Cluster");
    }
    for (const v of [...r.verbs, ...(r.subresources ?? []).flatMap((s) => s.verbs)]) {
      if (!knownVerbs.has(v)) problems.add(file, `${at}.resource.verbs`, `unknown verb ${v}`);
    }
    for (const s of r.shortNames ?? []) {
      if (!dnsLabel.test(s)) problems.add(file, `${at}.resource.shortNames`, `${s} is not a lowercase DNS label`);
    }
    for (const [j, column] of (r.printerColumns ?? []).entries()) {
      validatePrinterColumn(file, `${at}.resource.printerColumns[${j}]`, column, problems);
    }
  }
}

const columnTypes = new Set(["string", "integer", "number", "boolean", "date"]);

/** A column reads a JSONPath or names a printer cell, one of the two. */
function validatePrinterColumn(file: LoadedFile, at: string, column: PrinterColumn, problems: Problems): void {
  if ((column.jsonPath === undefined) === (column.cell === undefined)) {
    problems.add(file, at, "a printer column has either jsonPath or cell");
  }
  if (column.cell !== undefined && !cellNamePattern.test(column.cell)) {
    problems.add(file, `${at}.cell`, `${column.cell} is not <module>.<cell> (pod.ready)`);
  }
  if (!columnTypes.has(column.type)) problems.add(file, `${at}.type`, `unknown column type ${column.type}`);
  if (column.priority !== undefined && !(Number.isInteger(column.priority) && column.priority >= 0)) {
    problems.add(file, `${at}.priority`, "must be a non-negative integer");
  }
}

function validateNode(set: SchemaSet, file: LoadedFile, at: string, node: SchemaNode, problems: Problems): void {
  if (node.$ref) {
    const id = set.resolveRef(file.id, node.$ref);
    if (!set.tryDefinition(id)) problems.add(file, at, `$ref ${node.$ref} does not resolve`);
  }
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    if (!propertyName.test(name)) problems.add(file, `${at}.${name}`, "not a valid property name");
    validateNode(set, file, `${at}.${name}`, child, problems);
  }
  for (const req of node.required ?? []) {
    if (node.properties && !(req in node.properties)) problems.add(file, at, `required ${req} is not a property`);
  }
  if (node.items) validateNode(set, file, `${at}[]`, node.items, problems);
  if (typeof node.additionalProperties === "object") {
    validateNode(set, file, `${at}{}`, node.additionalProperties, problems);
  }
  if (node["x-kubernetes-list-type"] === "map") validateListMap(set, file, at, node, problems);
  if (node["x-kubernetes-list-type"] === "set" && node.items) {
    const item = resolveNode(set, file, node.items);
    if (!item?.type || !scalarTypes.has(item.type)) problems.add(file, at, "set list items must be scalars");
  }
}

function resolveNode(set: SchemaSet, file: LoadedFile, node: SchemaNode): SchemaNode | undefined {
  return node.$ref ? set.tryDefinition(set.resolveRef(file.id, node.$ref)) : node;
}

function validateListMap(set: SchemaSet, file: LoadedFile, at: string, node: SchemaNode, problems: Problems): void {
  const keys = node["x-kubernetes-list-map-keys"];
  if (!keys || keys.length === 0) {
    problems.add(file, at, "x-kubernetes-list-type map needs x-kubernetes-list-map-keys");
    return;
  }
  const item = node.items && resolveNode(set, file, node.items);
  if (!item) return;
  for (const key of keys) {
    const prop = item.properties?.[key];
    const propDef = prop && resolveNode(set, file, prop);
    if (!propDef) {
      problems.add(file, at, `list map key ${key} is not a property of the items`);
    } else if (!propDef.type || !scalarTypes.has(propDef.type)) {
      problems.add(file, at, `list map key ${key} must be a scalar`);
    } else if (!item.required?.includes(key) && prop.default === undefined) {
      problems.add(file, at, `list map key ${key} must be required or have a default`);
    }
  }
}

function validateProtobuf(set: SchemaSet, file: LoadedFile, name: string, def: SchemaNode, problems: Problems): void {
  if (!file.file.protobuf || def["x-kapi-json-only"]) return;
  const at = `definitions.${name}`;
  const wire = def["x-kapi-proto-message"];
  if (wire) {
    checkUnique(
      file,
      at,
      wire.map((f) => f.number),
      problems,
    );
    return;
  }
  if (!def.properties) return;
  const numbers: number[] = [];
  const inlined = new Set<string>();
  for (const inline of def["x-kapi-proto-inline"] ?? []) {
    numbers.push(inline.number);
    const target = set.tryDefinition(set.resolveRef(file.id, inline.$ref));
    if (!target) problems.add(file, `${at}.x-kapi-proto-inline`, `${inline.$ref} does not resolve`);
    for (const p of Object.keys(target?.properties ?? {})) inlined.add(p);
  }
  for (const [prop, node] of Object.entries(def.properties)) {
    const n = node["x-kapi-proto"];
    if (n !== undefined) {
      if (!Number.isInteger(n) || n < 1 || n > 536870911)
        problems.add(file, `${at}.${prop}`, `bad protobuf number ${n}`);
      numbers.push(n);
    } else if (prop !== "apiVersion" && prop !== "kind" && !inlined.has(prop)) {
      problems.add(file, `${at}.${prop}`, "needs a protobuf field number (x-kapi-proto)");
    }
  }
  checkUnique(file, at, numbers, problems);
}

function checkUnique(file: LoadedFile, at: string, numbers: number[], problems: Problems): void {
  const seen = new Set<number>();
  for (const n of numbers) {
    if (seen.has(n)) problems.add(file, at, `protobuf number ${n} is used twice`);
    seen.add(n);
  }
}

function validateStorageVersions(set: SchemaSet, problems: Problems): void {
  const byResource = new Map<string, { file: LoadedFile; storage: boolean }[]>();
  for (const k of set.servedKinds()) {
    const r = k.entry.resource;
    // Create-only review kinds and bindings keep nothing; only readable resources need a storage version.
    if (!r?.verbs.includes("get") || r.virtual || r.storedAs) continue;
    const key = `${k.gvk.group}/${k.entry.resource?.plural}`;
    const list = byResource.get(key) ?? [];
    list.push({ file: k.file, storage: k.entry.resource?.storageVersion === true });
    byResource.set(key, list);
  }
  for (const [key, list] of byResource) {
    const storage = list.filter((l) => l.storage);
    const first = list[0];
    if (storage.length !== 1 && first) {
      problems.add(first.file, "kinds", `${key} needs exactly one storage version, has ${storage.length}`);
    }
  }
}
