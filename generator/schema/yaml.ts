// Canonical YAML text of a schema file, so that importer output and hand edits diff cleanly.
import { Document, isScalar, isSeq, visit } from "yaml";
import type { SchemaFile, SchemaNode } from "./model.js";

const fileKeyOrder = [
  "group",
  "version",
  "stability",
  "enabledByDefault",
  "priority",
  "protobuf",
  "openapi",
  "lifecycle",
  "kinds",
  "definitions",
];

const nodeKeyOrder = [
  "$ref",
  "type",
  "format",
  "description",
  "enum",
  "default",
  "nullable",
  "minimum",
  "exclusiveMinimum",
  "maximum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "required",
  "oneOf",
  "anyOf",
  "items",
  "additionalProperties",
  "properties",
];

function ordered<T extends object>(obj: T, order: string[]): T {
  const rank = (k: string) => {
    const i = order.indexOf(k);
    return i === -1 ? order.length : i;
  };
  const keys = Object.keys(obj).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return Object.fromEntries(keys.map((k) => [k, (obj as Record<string, unknown>)[k]])) as T;
}

export function canonicalNode(node: SchemaNode): SchemaNode {
  const out: Record<string, unknown> = { ...ordered(node, nodeKeyOrder) };
  if (node.properties) {
    out.properties = Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, canonicalNode(v)]));
  }
  if (node.items) out.items = canonicalNode(node.items);
  if (typeof node.additionalProperties === "object")
    out.additionalProperties = canonicalNode(node.additionalProperties);
  if (node.oneOf) out.oneOf = node.oneOf.map(canonicalNode);
  if (node.anyOf) out.anyOf = node.anyOf.map(canonicalNode);
  return out as SchemaNode;
}

export function writeSchemaYaml(file: SchemaFile, path: string): string {
  const doc = ordered(file, fileKeyOrder);
  doc.definitions = Object.fromEntries(
    Object.entries(file.definitions).map(([name, node]) => [name, canonicalNode(node)]),
  );
  const header = `# ${path}: kapi schema (see docs/schema-format.md)\n`;
  const yaml = new Document(doc, { aliasDuplicateObjects: false });
  // Lists of scalars (verbs, required, enum) read best on one line.
  visit(yaml, {
    Seq(_, node) {
      if (isSeq(node) && node.items.every((item) => isScalar(item))) node.flow = true;
    },
  });
  return header + yaml.toString({ lineWidth: 0 });
}
