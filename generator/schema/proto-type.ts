// The protobuf type of a schema property, derived from its OpenAPI shape. `x-kapi-proto-type`
// overrides the element type (the item of a list, the value of a map) where the derivation is wrong.
import type { SchemaNode } from "./model.js";

export interface ProtoFieldType {
  /** Scalar name or fully qualified message name. */
  type: string;
  repeated: boolean;
  /** Set for map fields; always "string" for Kubernetes maps. */
  mapKey?: string;
}

/** Maps a `$ref` to the fully qualified protobuf message it names. */
export type RefToMessage = (ref: string) => string;

const protoScalarTypes = new Set([
  "double",
  "float",
  "int32",
  "int64",
  "uint32",
  "uint64",
  "sint32",
  "sint64",
  "fixed32",
  "fixed64",
  "sfixed32",
  "sfixed64",
  "bool",
  "string",
  "bytes",
]);

/** True for protobuf's built-in scalar types, false for message names. */
export function isScalarProtoType(type: string): boolean {
  return protoScalarTypes.has(type);
}

export function scalarProtoType(node: SchemaNode): string | undefined {
  switch (node.type) {
    case "string":
      return node.format === "byte" ? "bytes" : "string";
    case "integer":
      return node.format === "int32" ? "int32" : "int64";
    case "number":
      return node.format === "float" ? "float" : "double";
    case "boolean":
      return "bool";
    default:
      return undefined;
  }
}

function elementType(node: SchemaNode, refToMessage: RefToMessage): string | undefined {
  if (node.$ref) return refToMessage(node.$ref);
  return scalarProtoType(node);
}

/** Returns undefined when the shape has no protobuf form without an explicit `x-kapi-proto-type`. */
export function deriveProtoType(node: SchemaNode, refToMessage: RefToMessage): ProtoFieldType | undefined {
  const override = node["x-kapi-proto-type"];
  if (node.type === "array" && node.items) {
    const type = override ?? elementType(node.items, refToMessage);
    return type ? { type, repeated: true } : undefined;
  }
  if (node.type === "object" && typeof node.additionalProperties === "object" && !node.properties) {
    const type = override ?? elementType(node.additionalProperties, refToMessage);
    return type ? { type, repeated: false, mapKey: "string" } : undefined;
  }
  const type = override ?? elementType(node, refToMessage);
  return type ? { type, repeated: false } : undefined;
}
