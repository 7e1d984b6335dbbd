// proto2 text of one ProtoFile, in go-to-protobuf's layout: syntax, package, imports, then messages
// in name order. Messages of the same package are named bare, others fully qualified with a dot.
import { generatedHeader } from "../emit/emitter.js";
import { isScalarProtoType } from "../schema/proto-type.js";
import { type ProtoField, type ProtoFile, splitMessageName } from "./proto-files.js";

/** Where a schema file's .proto lives, relative to generated/proto/ (the root import paths resolve against). */
export function protoPath(fileId: string): string {
  return `${fileId}.proto`;
}

function typeName(type: string, pkg: string): string {
  if (isScalarProtoType(type)) return type;
  return splitMessageName(type).pkg === pkg ? splitMessageName(type).name : `.${type}`;
}

function fieldLine(field: ProtoField, pkg: string): string {
  const type = typeName(field.type, pkg);
  if (field.mapKey) return `map<${field.mapKey}, ${type}> ${field.name} = ${field.number};`;
  return `${field.repeated ? "repeated" : "optional"} ${type} ${field.name} = ${field.number};`;
}

export function renderProto(file: ProtoFile): string {
  const lines = [
    generatedHeader([file.source]).trimEnd(),
    "",
    'syntax = "proto2";',
    "",
    `package ${file.package};`,
    "",
  ];
  if (file.imports.length > 0) {
    for (const id of file.imports) lines.push(`import "${protoPath(id)}";`);
    lines.push("");
  }
  for (const message of file.messages) {
    lines.push(`message ${message.name} {`);
    for (const field of message.fields) lines.push(`  ${fieldLine(field, file.package)}`);
    lines.push("}", "");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
