// What kube forbids or requires in the keywords of a CRD schema, node by node
// (ValidateCustomResourceDefinitionOpenAPISchema without its CEL part): unsupported keywords ($ref,
// definitions, patternProperties, …), valid types, defaults where they are allowed, uniqueItems,
// additionalProperties beside properties, and the list-type/map-type markers with their keys.
import { type FieldError, forbidden, invalid, notSupported, required } from "../../errors/field-error.js";
import { child, index, key } from "../../errors/field-path.js";
import { additionalSchema, itemSchema, type SchemaProps } from "./schema-props.js";

export interface SchemaCheckOptions {
  requireValidPropertyType: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
}

/** Where a node sits: the state kube's specStandardValidator carries down. */
interface Place {
  readonly path: string;
  readonly isRoot: boolean;
  readonly insideResourceMeta: boolean;
  /** Why defaults are forbidden here; undefined where they are allowed. */
  readonly forbiddenDefaults: string | undefined;
}

export interface SchemaCheckResult {
  readonly errors: FieldError[];
  /** Nodes with errors at or below them: kube compiles no CEL rule there. */
  readonly withErrors: Set<SchemaProps>;
}

const openapiTypes = ["array", "boolean", "integer", "number", "object", "string"];
const metaFields = new Set(["metadata", "kind", "apiVersion"]);

export function checkSchemaValues(schema: SchemaProps, path: string, options: SchemaCheckOptions): SchemaCheckResult {
  const result: SchemaCheckResult = { errors: [], withErrors: new Set() };
  visit(schema, { path, isRoot: true, insideResourceMeta: false, forbiddenDefaults: undefined }, options, result);
  return result;
}

function below(place: Place, path: string, changes: Partial<Place> = {}): Place {
  return { ...place, path, isRoot: false, ...changes };
}

/** Checks a node and its subtree; returns whether it found errors there. */
function visit(s: SchemaProps, place: Place, options: SchemaCheckOptions, result: SchemaCheckResult): boolean {
  const before = result.errors.length;
  const errs = result.errors;
  const at = (name: string) => child(place.path, name);
  let childErrors = false;
  const recurse = (sub: SchemaProps | undefined, subPlace: Place): void => {
    if (sub !== undefined && visit(sub, subPlace, options, result)) childErrors = true;
  };

  errs.push(...keywordErrors(s, place, options));
  if (s.uniqueItems === true) {
    errs.push(
      forbidden(at("uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"),
    );
  }
  if (s.additionalProperties !== undefined) {
    const hasProperties = Object.keys(s.properties ?? {}).length > 0;
    if (hasProperties && (s.additionalProperties === false || typeof s.additionalProperties === "object")) {
      errs.push(forbidden(at("additionalProperties"), "additionalProperties and properties are mutual exclusive"));
    }
    const forbiddenDefaults = place.insideResourceMeta
      ? "inside additionalProperties applying to object metadata"
      : place.forbiddenDefaults;
    recurse(additionalSchema(s), below(place, at("additionalProperties"), { forbiddenDefaults }));
  }
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    let sub = below(place, key(at("properties"), name));
    if ((place.isRoot || s["x-kubernetes-embedded-resource"] === true) && metaFields.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (place.isRoot) sub = { ...sub, forbiddenDefaults: `in top-level ${name}` };
    }
    recurse(prop, sub);
  }
  recurse(s.not, below(place, at("not")));
  for (const [k, list] of [
    ["allOf", s.allOf],
    ["oneOf", s.oneOf],
    ["anyOf", s.anyOf],
  ] as const) {
    (list ?? []).forEach((sub, i) => {
      recurse(sub, below(place, index(at(k), i)));
    });
  }
  for (const [name, sub] of Object.entries(s.definitions ?? {}))
    recurse(sub, below(place, key(at("definitions"), name)));
  if (Array.isArray(s.items)) {
    s.items.forEach((sub, i) => {
      recurse(sub, below(place, index(at("items"), i)));
    });
  } else recurse(s.items, below(place, at("items")));
  for (const [name, dep] of Object.entries(s.dependencies ?? {})) {
    if (!Array.isArray(dep)) recurse(dep, below(place, key(at("dependencies"), name)));
  }
  if (s["x-kubernetes-preserve-unknown-fields"] === false) {
    errs.push(invalid(at("x-kubernetes-preserve-unknown-fields"), false, "must be true or undefined"));
  }
  errs.push(...markerErrors(s, place.path, options));
  const found = childErrors || errs.length > before;
  if (found) result.withErrors.add(s);
  return found;
}

/** specStandardValidatorV3.validate: keywords kube does not support, and where defaults may not be. */
function keywordErrors(s: SchemaProps, place: Place, options: SchemaCheckOptions): FieldError[] {
  const errs: FieldError[] = [];
  const at = (name: string) => child(place.path, name);
  if (options.requireValidPropertyType && s.type !== undefined && s.type !== "" && !openapiTypes.includes(s.type)) {
    errs.push(notSupported(at("type"), s.type, openapiTypes));
  }
  if (s.default !== undefined && place.forbiddenDefaults !== undefined) {
    errs.push(forbidden(at("default"), `must not be set ${place.forbiddenDefaults}`));
  }
  if (s.id !== undefined && s.id !== "") errs.push(forbidden(at("id"), "id is not supported"));
  if (s.additionalItems !== undefined) errs.push(forbidden(at("additionalItems"), "additionalItems is not supported"));
  if (Object.keys(s.patternProperties ?? {}).length > 0) {
    errs.push(forbidden(at("patternProperties"), "patternProperties is not supported"));
  }
  if (Object.keys(s.definitions ?? {}).length > 0)
    errs.push(forbidden(at("definitions"), "definitions is not supported"));
  if (s.dependencies !== undefined) errs.push(forbidden(at("dependencies"), "dependencies is not supported"));
  if (s.$ref !== undefined) errs.push(forbidden(at("$ref"), "$ref is not supported"));
  if (s.type === "null") errs.push(forbidden(at("type"), "type cannot be set to null, use nullable as an alternative"));
  if (Array.isArray(s.items) && s.items.length > 0) {
    errs.push(forbidden(at("items"), "items must be a schema object and not an array"));
  }
  if (place.insideResourceMeta && s["x-kubernetes-embedded-resource"] === true) {
    errs.push(forbidden(at("x-kubernetes-embedded-resource"), "must not be used inside of resource meta"));
  }
  return errs;
}

/** A marker that needs a type: Required when the type is missing, Invalid when it is another. */
function typeFor(s: SchemaProps, path: string, type: string, detail: string): FieldError[] {
  if (s.type === type) return [];
  return s.type === undefined || s.type === ""
    ? [required(child(path, "type"), detail)]
    : [invalid(child(path, "type"), s.type, detail)];
}

/** x-kubernetes-map-type, x-kubernetes-list-type and x-kubernetes-list-map-keys. */
function markerErrors(s: SchemaProps, path: string, options: SchemaCheckOptions): FieldError[] {
  const errs: FieldError[] = [];
  const at = (name: string) => child(path, name);
  const mapType = s["x-kubernetes-map-type"];
  const listType = s["x-kubernetes-list-type"];
  const mapKeys = s["x-kubernetes-list-map-keys"] ?? [];
  const items = itemSchema(s);
  if (mapType !== undefined) {
    errs.push(...typeFor(s, path, "object", "must be object if x-kubernetes-map-type is specified"));
    if (mapType !== "atomic" && mapType !== "granular") {
      errs.push(notSupported(at("x-kubernetes-map-type"), mapType, ["atomic", "granular"]));
    }
  }
  if (listType !== undefined && s.type !== "array") {
    errs.push(...typeFor(s, path, "array", "must be array if x-kubernetes-list-type is specified"));
  } else if (options.requireAtomicSetType && listType === "set" && items !== undefined) {
    const detail = "must be atomic as item of a list with x-kubernetes-list-type=set";
    const itemListType = items["x-kubernetes-list-type"];
    if (items.type === "array" && itemListType !== undefined && itemListType !== "atomic") {
      errs.push(invalid(child(at("items"), "x-kubernetes-list-type"), itemListType, detail));
    } else if (items.type === "object" && items["x-kubernetes-map-type"] !== "atomic") {
      errs.push(invalid(child(at("items"), "x-kubernetes-map-type"), itemListType ?? null, detail));
    }
  }
  if (listType !== undefined && !["atomic", "set", "map"].includes(listType)) {
    errs.push(notSupported(at("x-kubernetes-list-type"), listType, ["atomic", "set", "map"]));
  }
  if (mapKeys.length > 0) {
    const detail = "must be map if x-kubernetes-list-map-keys is non-empty";
    if (listType === undefined) errs.push(required(at("x-kubernetes-list-type"), detail));
    else if (listType !== "map") errs.push(invalid(at("x-kubernetes-list-type"), listType, detail));
  }
  if (listType === "map") errs.push(...mapListErrors(s, path, mapKeys));
  if (options.requireMapListKeysMapSetValidation) errs.push(...mapListKeysMapSetErrors(s, path));
  return errs;
}

function mapListErrors(s: SchemaProps, path: string, mapKeys: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  const at = (name: string) => child(path, name);
  if (mapKeys.length === 0) {
    errs.push(required(at("x-kubernetes-list-map-keys"), "must not be empty if x-kubernetes-list-type is map"));
  }
  if (s.items === undefined) {
    errs.push(required(at("items"), "must have a schema if x-kubernetes-list-type is map"));
    return errs;
  }
  if (Array.isArray(s.items)) {
    errs.push(invalid(at("items"), s.items, "must only have a single schema if x-kubernetes-list-type is map"));
    return errs;
  }
  const items = s.items;
  if (items.type !== "object") {
    const detail = "must be object if parent array's x-kubernetes-list-type is map";
    errs.push(invalid(child(at("items"), "type"), items.type ?? "", detail));
    return errs;
  }
  const seen = new Set<string>();
  for (const k of mapKeys) {
    const prop = items.properties?.[k];
    if (prop === undefined) {
      errs.push(invalid(at("x-kubernetes-list-map-keys"), mapKeys, "entries must all be names of item properties"));
    } else if (prop.type === "array" || prop.type === "object") {
      const detail = "must be a scalar type if parent array's x-kubernetes-list-type is map";
      errs.push(invalid(child(key(child(at("items"), "properties"), k), "type"), items.type, detail));
    }
    if (seen.has(k))
      errs.push(invalid(at("x-kubernetes-list-map-keys"), mapKeys, "must not contain duplicate entries"));
    seen.add(k);
  }
  return errs;
}

/** validateMapListKeysMapSet: set and map items not nullable; map keys required or defaulted, not nullable. */
export function mapListKeysMapSetErrors(s: SchemaProps, path: string): FieldError[] {
  const items = itemSchema(s);
  const listType = s["x-kubernetes-list-type"];
  if (items === undefined || (listType !== "set" && listType !== "map")) return [];
  const errs: FieldError[] = [];
  const itemsPath = child(path, "items");
  if (items.nullable === true) {
    errs.push(forbidden(child(itemsPath, "nullable"), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  }
  if (listType !== "map") return errs;
  const requiredKeys = new Set(items.required ?? []);
  for (const k of s["x-kubernetes-list-map-keys"] ?? []) {
    const prop = items.properties?.[k];
    if (prop === undefined) continue;
    const propPath = key(child(itemsPath, "properties"), k);
    if (!requiredKeys.has(k) && prop.default === undefined) {
      const detail =
        "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property";
      errs.push(required(child(propPath, "default"), detail));
    }
    if (prop.nullable === true) {
      errs.push(
        forbidden(
          child(propPath, "nullable"),
          "this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
        ),
      );
    }
  }
  return errs;
}
