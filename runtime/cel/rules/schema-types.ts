// Structural schema → CEL type, as Kubernetes' SchemaDeclType: objects with properties are object
// types (named after where they sit: `<root>.spec.template`, list items `.@idx`, map values `.@elem`),
// additionalProperties maps, arrays lists, int-or-string dyn, format byte bytes, date and date-time
// timestamps, duration durations, number double, integer int. A schema CEL cannot see (no type and
// only x-kubernetes-preserve-unknown-fields, or a list or map of such) has no type, and a property
// with no type or a name CEL cannot spell is not declared.
//
// Each type carries the bounds the cost estimator reads: the most elements (characters of a string,
// items of a list, entries of a map) a value can have, from maxLength / maxItems / maxProperties or,
// when unbounded, from how many of the smallest serialized values fit in a request (3 MiB).

import {
  BoolType,
  BytesType,
  type CelType,
  DoubleType,
  DurationType,
  DynType,
  type FieldDecl,
  IntType,
  listType,
  mapType,
  type ObjectType,
  objectType,
  StringType,
  TimestampType,
} from "../common/cel-types.js";
import type { SizeEstimate } from "../common/decls.js";
import { escapeName } from "./escaping.js";
import { type StructuralSchema, withTypeAndObjectMeta } from "./structural-schema.js";

/** The largest request body kube-apiserver accepts; the bound for anything a schema leaves unbounded. */
export const maxRequestSizeBytes = 3 * 1024 * 1024;

// Smallest JSON forms of scalar values (k8s.io/apiserver/pkg/cel/limits.go).
const minStringSize = 2;
const minBoolSize = 4;
const minNumberSize = 1;
const minDurationSizeJson = 3;
const jsonDateSize = 12;
const minDatetimeSizeJson = 21;
const maxDatetimeSizeJson = 32;
const maxDurationSizeJson = 32;

/** A declared field of an object type. */
export interface DeclField {
  /** The CEL identifier (escaped property name). */
  readonly name: string;
  /** The property name in JSON. */
  readonly property: string;
  readonly type: DeclType;
  readonly required: boolean;
  /** The name is also an inherited property of every JS object (`constructor`): read it as an own property. */
  readonly inherited: boolean;
}

/** How a JSON value of the type becomes a CEL value (the schema-values adapter switches on it). */
export type ValueKind =
  | "intOrString"
  | "object"
  | "map"
  | "list"
  | "string"
  | "bytes"
  | "duration"
  | "date"
  | "dateTime"
  | "double"
  | "int"
  | "bool";

/** A schema node's CEL type with the facts the cost estimator and the value adapter need. */
export interface DeclType {
  readonly celType: CelType;
  readonly value: ValueKind;
  readonly nullable: boolean;
  /** The schema the type came from (with apiVersion, kind and metadata added at resource roots). */
  readonly schema: StructuralSchema;
  /** Object types: fields by CEL identifier. */
  readonly fields: ReadonlyMap<string, DeclField> | undefined;
  /** Object types: fields by JSON property name. */
  readonly fieldsByProperty: ReadonlyMap<string, DeclField> | undefined;
  /** List items or map values. */
  readonly elem: DeclType | undefined;
  /** Map keys. */
  readonly key: DeclType | undefined;
  /** Most characters, items or entries a value can have (0 for scalars without a length). */
  readonly maxElements: number;
  /** Fewest bytes the value takes in JSON. */
  readonly minSerializedSize: number;
}

/** Every DeclType has the same shape, so reading one stays fast in the value adapter's hot path. */
function decl(
  celType: CelType,
  value: ValueKind,
  schema: StructuralSchema,
  minSerializedSize: number,
  maxElements = 0,
  parts: Pick<Partial<DeclType>, "fields" | "fieldsByProperty" | "elem" | "key"> = {},
): DeclType {
  return {
    celType,
    value,
    nullable: schema.nullable === true,
    schema,
    fields: parts.fields,
    fieldsByProperty: parts.fieldsByProperty,
    elem: parts.elem,
    key: parts.key,
    maxElements,
    minSerializedSize,
  };
}

const keyType: DeclType = decl(StringType, "string", { type: "string" }, minStringSize);

/**
 * The CEL type of a schema, or undefined when CEL cannot see values of it. `isResourceRoot` is true for
 * the schema of a whole kind and for embedded resources; `typeName` names the root object type (object
 * types below are named after their path from it).
 */
export function declTypeOf(
  schema: StructuralSchema,
  isResourceRoot: boolean,
  typeName = "object",
): DeclType | undefined {
  return build(schema, isResourceRoot, typeName);
}

function build(schema: StructuralSchema, isResourceRoot: boolean, name: string): DeclType | undefined {
  if (schema["x-kubernetes-int-or-string"] === true) {
    const max = schema.maxLength !== undefined ? atLeastZero(schema.maxLength) * 4 : maxRequestSizeBytes - 2;
    return decl(DynType, "intOrString", schema, 1, max);
  }
  const s = isResourceRoot ? withTypeAndObjectMeta(schema) : schema;
  switch (s.type) {
    case "array":
      return listDecl(s, name);
    case "object":
      return typeof s.additionalProperties === "object"
        ? mapDecl(s, s.additionalProperties, name)
        : objectDecl(s, name);
    case "string":
      return stringDecl(s);
    case "boolean":
      return decl(BoolType, "bool", s, minBoolSize);
    case "number":
      return decl(DoubleType, "double", s, minNumberSize);
    case "integer":
      return decl(IntType, "int", s, minNumberSize);
    default:
      return undefined;
  }
}

function listDecl(s: StructuralSchema, name: string): DeclType | undefined {
  if (s.items === undefined) return undefined;
  const elem = build(s.items, s.items["x-kubernetes-embedded-resource"] === true, `${name}.@idx`);
  if (elem === undefined) return undefined;
  // `[` and `]`, then items separated by commas.
  const max =
    s.maxItems !== undefined
      ? atLeastZero(s.maxItems)
      : Math.floor((maxRequestSizeBytes - 2) / (elem.minSerializedSize + 1));
  return decl(listType(elem.celType), "list", s, 2, max, { elem });
}

function mapDecl(s: StructuralSchema, values: StructuralSchema, name: string): DeclType | undefined {
  const elem = build(values, values["x-kubernetes-embedded-resource"] === true, `${name}.@elem`);
  if (elem === undefined) return undefined;
  // A shortest entry is `"":v,`: two quotes, a colon, a comma and room for a one-character key.
  const max =
    s.maxProperties !== undefined
      ? atLeastZero(s.maxProperties)
      : Math.floor((maxRequestSizeBytes - 2) / (elem.minSerializedSize + 6));
  return decl(mapType(StringType, elem.celType), "map", s, 2, max, { elem, key: keyType });
}

function objectDecl(s: StructuralSchema, name: string): DeclType {
  const fields = new Map<string, DeclField>();
  const fieldsByProperty = new Map<string, DeclField>();
  const decls = new Map<string, FieldDecl>();
  const required = new Set(s.required ?? []);
  let minSerializedSize = 2;
  for (const [property, prop] of Object.entries(s.properties ?? {})) {
    const escaped = escapeName(property);
    const type = build(prop, prop["x-kubernetes-embedded-resource"] === true, `${name}.${escaped ?? property}`);
    if (type === undefined) continue;
    const isRequired = required.has(property);
    if (escaped !== undefined) {
      const inherited = property in Object.prototype;
      const field: DeclField = { name: escaped, property, type, required: isRequired, inherited };
      fields.set(escaped, field);
      fieldsByProperty.set(property, field);
      decls.set(escaped, { type: type.celType, required: isRequired });
    }
    // Defaults are filled in before validation, so only required properties without one count.
    if (isRequired && prop.default === undefined) minSerializedSize += property.length + type.minSerializedSize + 4;
  }
  const celType: ObjectType = objectType(name, decls);
  return decl(celType, "object", s, minSerializedSize, 0, { fields, fieldsByProperty });
}

function stringDecl(s: StructuralSchema): DeclType {
  switch (s.format) {
    case "byte":
      return decl(
        BytesType,
        "bytes",
        s,
        minStringSize,
        s.maxLength !== undefined ? atLeastZero(s.maxLength) : maxRequestSizeBytes - 2,
      );
    case "duration":
      return decl(DurationType, "duration", s, minDurationSizeJson, maxDurationSizeJson);
    case "date":
      return decl(TimestampType, "date", s, jsonDateSize, jsonDateSize);
    case "date-time":
      return decl(TimestampType, "dateTime", s, minDatetimeSizeJson, maxDatetimeSizeJson);
  }
  // maxLength counts code points; a code point takes up to four bytes.
  const max =
    s.maxLength !== undefined
      ? atLeastZero(s.maxLength) * 4
      : s.enum !== undefined && s.enum.length > 0
        ? longestEnumValue(s.enum)
        : maxRequestSizeBytes - 2;
  return decl(StringType, "string", s, minStringSize, max);
}

function longestEnumValue(values: readonly unknown[]): number {
  let max = 0;
  for (const v of values) if (typeof v === "string") max = Math.max(max, Buffer.byteLength(v));
  return max;
}

function atLeastZero(n: number): number {
  return Math.max(n, 0);
}

/**
 * The size bounds of the value at a path below the root, as the cost estimator asks for them: field
 * names, `@items` (list elements), `@values` (map values), `@keys` (map keys); the path starts with
 * the variable name, which is the root. Undefined when the path leaves the declared types.
 */
export function sizeAtPath(root: DeclType, path: readonly string[]): SizeEstimate | undefined {
  if (path.length === 0) return undefined;
  let node: DeclType | undefined = root;
  for (const step of path.slice(1)) {
    if (step === "@items" || step === "@values") node = node.elem;
    else if (step === "@keys") node = node.key;
    else node = node.fields?.get(step)?.type;
    if (node === undefined) return undefined;
  }
  return { min: 0, max: node.maxElements };
}

/**
 * How many times a value with this smallest serialized size can appear in one request: the factor a
 * rule's cost is multiplied by when the lists and maps above it are unbounded.
 */
export function maxCardinality(minSerializedSize: number): number {
  // At least one comma between repeated elements.
  return Math.floor(maxRequestSizeBytes / (minSerializedSize + 1));
}
