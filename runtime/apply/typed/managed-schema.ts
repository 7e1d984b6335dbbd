// The schema server-side apply walks objects with: kapi's field table read the way kube-openapi's schemaconv
// turns OpenAPI into structured-merge-diff types. Structs are atomic when marked so; maps are granular
// unless marked atomic; a list is atomic, a set or a map by `x-kubernetes-list-type`, and without one a
// `merge` patch strategy makes it a map keyed by its patch merge key (a set when it has none), anything
// else atomic. `any` values (RawExtension, preserved unknown fields) and kinds the table does not know are
// deduced from the value: objects are granular maps, lists atomic. A struct with `otherFields` takes the
// fields it does not declare as that type (a map's element type beside its declared fields).
import type { FieldDefinition, FieldNode, FieldTable, PatchMarkers, ScalarField } from "../../codecs/field-table.js";
import { isJsonObject } from "../../object/json-object.js";

export interface ManagedSchema {
  table: FieldTable;
  /** The kind's definition: `fieldTable.kinds["apps/v1/Deployment"]`; `"any"` for a kind the table lacks. */
  root: FieldNode;
}

export type SchemaType =
  | { readonly kind: "struct"; readonly definition: number; readonly atomic: boolean }
  | { readonly kind: "map"; readonly element: SchemaType; readonly atomic: boolean }
  | {
      readonly kind: "list";
      readonly element: SchemaType;
      readonly atomic: boolean;
      /** Key fields of a list map; empty for a set (or an atomic list). */
      readonly keys: readonly string[];
    }
  | { readonly kind: "scalar"; readonly scalar?: ScalarField }
  | { readonly kind: "deduced" };

/** A schema type once a deduced one is resolved against a value. */
export type ResolvedType = Exclude<SchemaType, { kind: "deduced" }>;

/**
 * What server-side apply reads beyond the field table's own members, when the generator provides it:
 * `present`, the properties a Go object always serializes even when the JSON leaves them out (`{}` for a
 * non-pointer struct, null for a field without omitempty, which OpenAPI lists as required), and
 * `defaults`, each property's OpenAPI `default` (a list map item omitting a key field takes it).
 */
interface DefinitionExtras {
  present?: Readonly<Record<string, unknown>>;
  defaults?: Readonly<Record<string, unknown>>;
}

type Definition = FieldDefinition & DefinitionExtras;

const deduced: SchemaType = { kind: "deduced" };
const deducedMap: ResolvedType = { kind: "map", element: deduced, atomic: false };
const deducedList: ResolvedType = { kind: "list", element: deduced, atomic: true, keys: [] };

export function schemaForKind(table: FieldTable, kindKey: string): ManagedSchema {
  return { table, root: table.kinds[kindKey] ?? "any" };
}

function listRelationship(markers: PatchMarkers | undefined): { atomic: boolean; keys: readonly string[] } {
  const strategy = markers?.strategy;
  if (strategy === "merge" || strategy === "merge,retainKeys") {
    return { atomic: false, keys: markers?.mergeKey !== undefined ? [markers.mergeKey] : [] };
  }
  return { atomic: true, keys: [] };
}

/** The type of a field table node; `markers` are the patch markers of the property holding it. */
function typeOfNode(table: FieldTable, node: FieldNode, markers?: PatchMarkers): SchemaType {
  if (typeof node === "number")
    return { kind: "struct", definition: node, atomic: table.definitions[node]?.atomic === true };
  if (node === "any") return deduced;
  if (typeof node === "string") return { kind: "scalar", scalar: node };
  if ("map" in node) return { kind: "map", element: typeOfNode(table, node.map), atomic: node.mapType === "atomic" };
  const element = typeOfNode(table, node.list);
  switch (node.listType) {
    case "atomic":
      return { kind: "list", element, atomic: true, keys: [] };
    case "set":
      return { kind: "list", element, atomic: false, keys: [] };
    case "map":
      return { kind: "list", element, atomic: false, keys: node.keys ?? [] };
    default:
      return { kind: "list", element, ...listRelationship(markers) };
  }
}

export function rootType(schema: ManagedSchema): SchemaType {
  return typeOfNode(schema.table, schema.root);
}

/** A deduced type made concrete by the value it holds; other types unchanged. */
export function resolveType(type: SchemaType, value: unknown): ResolvedType {
  if (type.kind !== "deduced") return type;
  if (isJsonObject(value)) return deducedMap;
  if (Array.isArray(value)) return deducedList;
  return { kind: "scalar" };
}

function definition(schema: ManagedSchema, index: number): Definition | undefined {
  return schema.table.definitions[index];
}

/** Whether a struct declares the field (and does not merely take it as one of its other fields). */
export function declaresField(schema: ManagedSchema, struct: { definition: number }, name: string): boolean {
  const def = definition(schema, struct.definition);
  return def !== undefined && Object.hasOwn(def.fields, name);
}

/**
 * The type of a struct's field: the declared one, else the struct's type for other fields; undefined when
 * the struct neither declares nor keeps it.
 */
export function fieldType(schema: ManagedSchema, struct: { definition: number }, name: string): SchemaType | undefined {
  const def = definition(schema, struct.definition);
  if (def === undefined) return undefined;
  const declared = Object.hasOwn(def.fields, name) ? def.fields[name] : undefined;
  if (declared !== undefined) return typeOfNode(schema.table, declared, def.patch?.[name]);
  return def.otherFields === undefined ? undefined : typeOfNode(schema.table, def.otherFields);
}

/** The default a list map item takes for a key field it omits, when the item's schema has one. */
export function keyDefault(schema: ManagedSchema, element: SchemaType, key: string): unknown {
  if (element.kind !== "struct") return undefined;
  const defaults = definition(schema, element.definition)?.defaults;
  return defaults !== undefined && Object.hasOwn(defaults, key) ? defaults[key] : undefined;
}

/** What a Go object of this struct holds for a field its JSON omits: undefined when Go omits it too. */
export function zeroValue(schema: ManagedSchema, struct: { definition: number }, name: string): unknown {
  const present = definition(schema, struct.definition)?.present;
  return present !== undefined && Object.hasOwn(present, name) ? present[name] : undefined;
}
