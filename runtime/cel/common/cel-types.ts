// CEL types as the checker, the planner and the libraries see them. Named primitive types are shared
// singletons; list, map, type and opaque types are built with the constructors below. Object types
// describe messages: in kapi the object schemas of Kubernetes kinds (kubernetes/schema-types.ts).

export type PrimitiveKind =
  | "bool"
  | "int"
  | "uint"
  | "double"
  | "string"
  | "bytes"
  | "null_type"
  | "timestamp"
  | "duration";

export type CelType =
  | { readonly kind: PrimitiveKind }
  | { readonly kind: "dyn" }
  | { readonly kind: "any" }
  | { readonly kind: "error" }
  | { readonly kind: "list"; readonly elem: CelType }
  | { readonly kind: "map"; readonly key: CelType; readonly value: CelType }
  /** The type of a type value: `type(int)`; `type` alone when the parameter is unknown (dyn). */
  | { readonly kind: "type"; readonly type: CelType }
  /** A type parameter of an overload signature (`A` in `list(A) + list(A)`). */
  | { readonly kind: "param"; readonly name: string }
  /** An abstract type with parameters: `optional_type(T)`, `kubernetes.Quantity`, `net.IP`, … */
  | { readonly kind: "opaque"; readonly name: string; readonly params: readonly CelType[] }
  | ObjectType;

/** A message type: named, with declared fields. `fields` may be filled after creation (recursive schemas). */
export interface ObjectType {
  readonly kind: "object";
  readonly name: string;
  readonly fields: ReadonlyMap<string, FieldDecl>;
}

export interface FieldDecl {
  readonly type: CelType;
  /** A required field is always present, so `has()` on it is not needed; informational. */
  readonly required?: boolean;
}

export const BoolType: CelType = { kind: "bool" };
export const IntType: CelType = { kind: "int" };
export const UintType: CelType = { kind: "uint" };
export const DoubleType: CelType = { kind: "double" };
export const StringType: CelType = { kind: "string" };
export const BytesType: CelType = { kind: "bytes" };
export const NullType: CelType = { kind: "null_type" };
export const TimestampType: CelType = { kind: "timestamp" };
export const DurationType: CelType = { kind: "duration" };
export const DynType: CelType = { kind: "dyn" };
export const AnyType: CelType = { kind: "any" };
export const ErrorType: CelType = { kind: "error" };
export const TypeType: CelType = { kind: "type", type: DynType };

export function listType(elem: CelType): CelType {
  return { kind: "list", elem };
}

export function mapType(key: CelType, value: CelType): CelType {
  return { kind: "map", key, value };
}

export function typeOfType(type: CelType): CelType {
  return { kind: "type", type };
}

export function typeParam(name: string): CelType {
  return { kind: "param", name };
}

export function opaqueType(name: string, ...params: CelType[]): CelType {
  return { kind: "opaque", name, params };
}

export function optionalType(elem: CelType): CelType {
  return opaqueType("optional_type", elem);
}

export function objectType(name: string, fields: ReadonlyMap<string, FieldDecl> = new Map()): ObjectType {
  return { kind: "object", name, fields };
}

/** The name a type value prints and compares by (`type(1) == int`): cel-go's type names. */
export function typeName(type: CelType): string {
  switch (type.kind) {
    case "timestamp":
      return "google.protobuf.Timestamp";
    case "duration":
      return "google.protobuf.Duration";
    case "any":
      return "google.protobuf.Any";
    case "list":
      return "list";
    case "map":
      return "map";
    case "type":
      return "type";
    case "param":
    case "opaque":
    case "object":
      return type.name;
    default:
      return type.kind;
  }
}

/**
 * A type as run-time values name it (`list(int)`, `map(string, dyn)`, `google.protobuf.Timestamp`); the
 * checker's messages and debug strings use checker/format-type.ts instead (`timestamp`, `null`).
 */
export function formatType(type: CelType): string {
  switch (type.kind) {
    case "list":
      return `list(${formatType(type.elem)})`;
    case "map":
      return `map(${formatType(type.key)}, ${formatType(type.value)})`;
    case "type":
      return type.type.kind === "dyn" ? "type" : `type(${formatType(type.type)})`;
    case "opaque":
      return type.params.length === 0 ? type.name : `${type.name}(${type.params.map(formatType).join(", ")})`;
    default:
      return typeName(type);
  }
}

/** Structural identity (object and opaque types by name), without assignability rules. */
export function sameType(a: CelType, b: CelType): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case "list":
      return sameType(a.elem, (b as typeof a).elem);
    case "map":
      return sameType(a.key, (b as typeof a).key) && sameType(a.value, (b as typeof a).value);
    case "type":
      return sameType(a.type, (b as typeof a).type);
    case "param":
    case "object":
      return a.name === (b as typeof a).name;
    case "opaque": {
      const o = b as typeof a;
      return (
        a.name === o.name &&
        a.params.length === o.params.length &&
        a.params.every((p, i) => sameType(p, o.params[i] as CelType))
      );
    }
    default:
      return true;
  }
}
