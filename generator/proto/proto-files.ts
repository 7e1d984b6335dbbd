// The protobuf messages of every schema file with a `protobuf.package`, before rendering: which
// definitions are messages, their fields in number order and the other files they import.
import type { SchemaNode } from "../schema/model.js";
import { deriveProtoType, isScalarProtoType, scalarProtoType } from "../schema/proto-type.js";
import type { LoadedFile, SchemaSet } from "../schema/schema-set.js";

export interface ProtoField {
  name: string;
  number: number;
  /** Scalar name or fully qualified message name (without a leading dot). */
  type: string;
  repeated: boolean;
  /** Key type of a map field; maps are never repeated. */
  mapKey?: string;
}

export interface ProtoMessage {
  name: string;
  fields: ProtoField[];
}

export interface ProtoFile {
  /** Schema file id; the .proto lives at `proto/<fileId>.proto`. */
  fileId: string;
  source: string;
  package: string;
  /** File ids of the other .proto files whose messages the fields name. */
  imports: string[];
  messages: ProtoMessage[];
}

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Package and message name of a fully qualified message. */
export function splitMessageName(qualified: string): { pkg: string; name: string } {
  const i = qualified.lastIndexOf(".");
  return { pkg: qualified.slice(0, i), name: qualified.slice(i + 1) };
}

/**
 * Definitions that are protobuf messages. Plain scalars have no wire message of their own, and
 * JSON-only definitions (meta.k8s.io Table) have none upstream either.
 */
export function isMessageDefinition(def: SchemaNode): boolean {
  if (def["x-kapi-json-only"]) return false;
  return def.properties !== undefined || def["x-kapi-proto-message"] !== undefined;
}

/** Byte order, as go-to-protobuf sorts messages, so output does not depend on the collation in use. */
function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export function buildProtoFiles(set: SchemaSet): { files: ProtoFile[]; notes: string[] } {
  const notes: string[] = [];
  const fileOfPackage = new Map<string, LoadedFile>();
  for (const file of set.files) {
    const pkg = file.file.protobuf?.package;
    if (!pkg) continue;
    const other = fileOfPackage.get(pkg);
    if (other) notes.push(`${file.path}: protobuf package ${pkg} is also declared by ${other.path}`);
    else fileOfPackage.set(pkg, file);
  }

  const definitionOfMessage = (qualified: string): SchemaNode | undefined => {
    const { pkg, name } = splitMessageName(qualified);
    return fileOfPackage.get(pkg)?.file.definitions[name];
  };

  const files: ProtoFile[] = [];
  for (const file of fileOfPackage.values()) {
    const pkg = file.file.protobuf?.package ?? "";
    const messages: ProtoMessage[] = [];
    for (const [name, def] of Object.entries(file.file.definitions)) {
      if (!isMessageDefinition(def)) continue;
      messages.push({ name, fields: fieldsOf(set, file, name, def, definitionOfMessage, notes) });
    }
    messages.sort(byName);

    const imports = new Set<string>();
    for (const message of messages) {
      for (const field of message.fields) {
        if (isScalarProtoType(field.type)) continue;
        const target = splitMessageName(field.type);
        const targetFile = fileOfPackage.get(target.pkg);
        const targetDef = targetFile?.file.definitions[target.name];
        if (!targetFile || !targetDef || !isMessageDefinition(targetDef)) {
          notes.push(
            `${file.path}: ${message.name}.${field.name} names ${field.type}, which is no message of a schema file`,
          );
          continue;
        }
        if (targetFile !== file) imports.add(targetFile.id);
      }
    }
    files.push({ fileId: file.id, source: file.path, package: pkg, imports: [...imports].sort(), messages });
  }
  files.sort((a, b) => (a.fileId < b.fileId ? -1 : a.fileId > b.fileId ? 1 : 0));
  return { files, notes };
}

function fieldsOf(
  set: SchemaSet,
  file: LoadedFile,
  message: string,
  def: SchemaNode,
  definitionOfMessage: (qualified: string) => SchemaNode | undefined,
  notes: string[],
): ProtoField[] {
  const fields: ProtoField[] = [];
  const wire = def["x-kapi-proto-message"];
  if (wire) {
    for (const w of wire) fields.push({ name: w.name, number: w.number, type: w.type, repeated: w.repeated === true });
  } else {
    for (const inline of def["x-kapi-proto-inline"] ?? []) {
      const type = set.protoMessage(set.resolveRef(file.id, inline.$ref));
      if (!type) {
        notes.push(`${file.path}: ${message}.${inline.name} inlines ${inline.$ref}, which has no protobuf package`);
        continue;
      }
      fields.push({ name: inline.name, number: inline.number, type, repeated: false });
    }
    // Properties without a number are apiVersion/kind (TypeMeta travels in the envelope) or the
    // properties of an inlined struct, which its own message carries.
    for (const [prop, node] of Object.entries(def.properties ?? {})) {
      const number = node["x-kapi-proto"];
      if (number === undefined) continue;
      const name = node["x-kapi-proto-name"] ?? prop;
      const where = `${file.path}: ${message}.${prop}`;
      if (!identifier.test(name)) {
        notes.push(`${where}: ${name} is not a protobuf field name; set x-kapi-proto-name`);
        continue;
      }
      const derived = deriveProtoType(node, (ref) => messageOfRef(set, file, ref));
      if (!derived) {
        notes.push(`${where}: no protobuf type for this shape; set x-kapi-proto-type`);
        continue;
      }
      const repeated = derived.repeated && !isWholeListWrapper(node, definitionOfMessage);
      const field: ProtoField = { name, number, type: derived.type, repeated };
      if (derived.mapKey) field.mapKey = derived.mapKey;
      fields.push(field);
    }
  }
  return fields.sort((a, b) => a.number - b.number);
}

/**
 * A JSON list whose `x-kapi-proto-type` is a wrapper message (a JSON array on its own, like meta/v1
 * Verbs) travels as one such message holding the items, not as a repeated field of wrappers. A
 * list of lists would be the repeated form, so nested arrays stay repeated.
 */
function isWholeListWrapper(node: SchemaNode, definitionOfMessage: (qualified: string) => SchemaNode | undefined) {
  const override = node["x-kapi-proto-type"];
  if (node.type !== "array" || !override || node.items?.type === "array") return false;
  const wrapper = definitionOfMessage(override);
  return wrapper?.type === "array" && wrapper["x-kapi-proto-message"] !== undefined;
}

/** A `$ref` to a message names it; a `$ref` to a plain scalar definition is that scalar on the wire. */
function messageOfRef(set: SchemaSet, file: LoadedFile, ref: string): string {
  const id = set.resolveRef(file.id, ref);
  const def = set.definition(id);
  if (!isMessageDefinition(def)) {
    const scalar = scalarProtoType(def);
    if (scalar) return scalar;
  }
  // Without a protobuf package the OpenAPI name stands in, and the import check reports it.
  return set.protoMessage(id) ?? set.openapiName(id);
}
