// Whether a CRD schema is structural, as kube's NewStructural and ValidateStructural decide: every
// node has a type (unless x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields stand in),
// value-validation-only clauses (allOf, anyOf, oneOf, not) restrict but never declare (no type,
// default, description, markers, metadata), everything they name is declared outside them, metadata
// at the root restricts only name and generateName, embedded resources are objects.

import { CelError } from "../../cel/common/values.js";
import { compileRegex } from "../../cel/library/standard/regex.js";
import { type FieldError, forbidden, invalid, required } from "../../errors/field-error.js";
import { child, index, key } from "../../errors/field-path.js";
import { formatFieldError } from "../../errors/format-field-error.js";
import { additionalSchema, itemSchema, type SchemaProps } from "./schema-props.js";

type Level = "root" | "item" | "field";

const emptyTypeDetail: Record<Level, string> = {
  root: "must not be empty at the root",
  item: "must not be empty for specified array items",
  field: "must not be empty for specified object fields",
};

/** NewStructural's error for keywords a structural schema cannot hold; undefined when there are none. */
export function unsupportedKeywordError(s: SchemaProps): string | undefined {
  const own = unsupportedOwnKeyword(s);
  if (own !== undefined) return own;
  const nested = [s.not, ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? []), additionalSchema(s)];
  for (const sub of nested) {
    const err = sub === undefined ? undefined : unsupportedKeywordError(sub);
    if (err !== undefined) return err;
  }
  if (s["x-kubernetes-preserve-unknown-fields"] === false) {
    return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  }
  if (Array.isArray(s.items) && s.items.length > 0) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  for (const sub of [itemSchema(s), ...Object.values(s.properties ?? {})]) {
    const err = sub === undefined ? undefined : unsupportedKeywordError(sub);
    if (err !== undefined) return err;
  }
  return undefined;
}

function unsupportedOwnKeyword(s: SchemaProps): string | undefined {
  const unsupported = (name: string) => `OpenAPIV3Schema '${name}' is not supported`;
  if (s.id !== undefined && s.id !== "") return unsupported("id");
  if (s.$schema !== undefined && s.$schema !== "") return unsupported("schema");
  if (s.$ref !== undefined && s.$ref !== "") return unsupported("$ref");
  if (Object.keys(s.patternProperties ?? {}).length > 0) return unsupported("patternProperties");
  if (Object.keys(s.dependencies ?? {}).length > 0) return unsupported("dependencies");
  if (s.additionalItems !== undefined) return unsupported("additionalItems");
  if (Object.keys(s.definitions ?? {}).length > 0) return unsupported("definitions");
  return undefined;
}

/** ValidateStructural: the errors sorted by their text, as kube sorts them. */
export function structuralErrors(s: SchemaProps, path: string): FieldError[] {
  const errs = [...invariantErrors(s, "root", path), ...completenessErrors(s, s, path, path)];
  const text = new Map(errs.map((e) => [e, formatFieldError(e)]));
  return errs.sort((a, b) => ((text.get(a) ?? "") < (text.get(b) ?? "") ? -1 : 1));
}

function invariantErrors(s: SchemaProps, level: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const at = (name: string) => child(path, name);
  const items = itemSchema(s);
  if (s.type === "array" && items === undefined) errs.push(required(at("items"), "must be specified"));
  if (items !== undefined) errs.push(...invariantErrors(items, "item", at("items")));
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    errs.push(...invariantErrors(prop, "field", key(at("properties"), name)));
  }
  if (s.additionalProperties !== undefined) {
    if (level === "root") errs.push(forbidden(at("additionalProperties"), "must not be used at the root"));
    const additional = additionalSchema(s);
    if (additional !== undefined) errs.push(...invariantErrors(additional, "field", at("additionalProperties")));
  }
  const intOrString = s["x-kubernetes-int-or-string"] === true;
  const preserve = s["x-kubernetes-preserve-unknown-fields"] === true;
  const embedded = s["x-kubernetes-embedded-resource"] === true;
  if (intOrString && preserve) {
    errs.push(
      invalid(at("x-kubernetes-preserve-unknown-fields"), true, "must be false if x-kubernetes-int-or-string is true"),
    );
  }
  if (intOrString && embedded) {
    errs.push(
      invalid(at("x-kubernetes-embedded-resource"), true, "must be false if x-kubernetes-int-or-string is true"),
    );
  }
  errs.push(...junctorErrors(s, isIntOrStringAnyOf(s.anyOf), isIntOrStringAnyOf(s.allOf?.[0]?.anyOf), path));
  const type = s.type ?? "";
  if (embedded && type !== "object") {
    const detail = "must be object if x-kubernetes-embedded-resource is true";
    errs.push(type === "" ? required(at("type"), detail) : invalid(at("type"), type, detail));
  } else if (type === "" && !intOrString && !preserve) {
    errs.push(required(at("type"), emptyTypeDetail[level]));
  }
  if (embedded && s.additionalProperties !== undefined) {
    errs.push(forbidden(at("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"));
  }
  if (level === "root" && type !== "" && type !== "object")
    errs.push(invalid(at("type"), type, "must be object at the root"));
  const checkMetadata = level === "root" || embedded;
  for (const name of ["kind", "apiVersion"]) {
    const prop = s.properties?.[name];
    if (prop !== undefined && checkMetadata && prop.type !== "string") {
      errs.push(invalid(child(key(at("properties"), name), "type"), prop.type ?? "", "must be string"));
    }
  }
  const metadata = s.properties?.metadata;
  if (metadata !== undefined) {
    const metaPath = key(at("properties"), "metadata");
    if (checkMetadata && metadata.type !== "object") {
      errs.push(invalid(child(metaPath, "type"), metadata.type ?? "", "must be object"));
    }
    if (level === "root" && restrictsMoreThanNames(metadata)) {
      const detail = "must not specify anything other than name and generateName, but metadata is implicitly specified";
      errs.push(forbidden(metaPath, detail));
    }
  }
  if (embedded && !preserve && Object.keys(s.properties ?? {}).length === 0) {
    const detail =
      "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields";
    errs.push(required(at("properties"), detail));
  }
  return errs;
}

/** Keywords a structural schema does not keep (documentation only). */
const notKept = new Set(["externalDocs", "example"]);

/** Root metadata may declare its type and the name and generateName properties, nothing else. */
function restrictsMoreThanNames(metadata: SchemaProps): boolean {
  const props = Object.keys(metadata.properties ?? {});
  const onlyNames = props.length <= 2 && props.every((p) => p === "name" || p === "generateName");
  return Object.entries(metadata).some(([k, value]) => {
    if (notKept.has(k) || k === "type" || k === "default") return false;
    if (k === "properties") return !onlyNames;
    if (k === "additionalProperties") return true;
    if (Array.isArray(value)) return value.length > 0 || k === "required";
    return value !== false && value !== "";
  });
}

/** The int-or-string shape kube allows: exactly `anyOf: [{type: integer}, {type: string}]`. */
function isIntOrStringAnyOf(anyOf: readonly SchemaProps[] | undefined): boolean {
  if (anyOf?.length !== 2) return false;
  const only = (s: SchemaProps | undefined, type: string) =>
    s?.type === type && Object.keys(s).every((k) => k === "type" || notKept.has(k));
  return only(anyOf[0], "integer") && only(anyOf[1], "string");
}

/** validateValueValidation: the junctors below a node, and its pattern. */
function junctorErrors(s: SchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const at = (name: string) => child(path, name);
  if (!skipAnyOf) errs.push(...(s.anyOf ?? []).flatMap((v, i) => nestedErrors(v, false, index(at("anyOf"), i))));
  errs.push(
    ...(s.allOf ?? []).flatMap((v, i) => nestedErrors(v, skipFirstAllOfAnyOf && i === 0, index(at("allOf"), i))),
  );
  errs.push(...(s.oneOf ?? []).flatMap((v, i) => nestedErrors(v, false, index(at("oneOf"), i))));
  if (s.not !== undefined) errs.push(...nestedErrors(s.not, false, at("not")));
  if (s.pattern !== undefined && s.pattern !== "") {
    const re = compileRegex(s.pattern);
    if (re instanceof CelError) {
      errs.push(invalid(at("pattern"), s.pattern, `must be a valid regular expression, but isn't: ${re.message}`));
    }
  }
  return errs;
}

const nestedForbidden: readonly [keyof SchemaProps, string][] = [
  ["type", "must be empty to be structural"],
  ["additionalProperties", "must be undefined to be structural"],
  ["default", "must be undefined to be structural"],
  ["title", "must be empty to be structural"],
  ["description", "must be empty to be structural"],
  ["nullable", "must be false to be structural"],
  ["x-kubernetes-preserve-unknown-fields", "must be false to be structural"],
  ["x-kubernetes-embedded-resource", "must be false to be structural"],
  ["x-kubernetes-int-or-string", "must be false to be structural"],
  ["x-kubernetes-list-map-keys", "must be empty to be structural"],
  ["x-kubernetes-list-type", "must be undefined to be structural"],
  ["x-kubernetes-map-type", "must be undefined to be structural"],
  ["x-kubernetes-validations", "must be empty to be structural"],
];

/** Whether a keyword counts as set the way Go's zero values decide it. */
function isSet(s: SchemaProps, k: keyof SchemaProps): boolean {
  const value = s[k];
  if (value === undefined || value === false || value === "") return false;
  if (k === "x-kubernetes-list-map-keys" || k === "x-kubernetes-validations") return (value as unknown[]).length > 0;
  return true;
}

/** validateNestedValueValidation: a clause under allOf/anyOf/oneOf/not only restricts. */
function nestedErrors(v: SchemaProps, skipAnyOf: boolean, path: string): FieldError[] {
  const errs = junctorErrors(v, skipAnyOf, false, path);
  const items = itemSchema(v);
  if (items !== undefined) errs.push(...nestedErrors(items, false, child(path, "items")));
  for (const [name, prop] of Object.entries(v.properties ?? {})) {
    errs.push(...nestedErrors(prop, false, key(child(path, "properties"), name)));
  }
  for (const [k, detail] of nestedForbidden) if (isSet(v, k)) errs.push(forbidden(child(path, k), detail));
  if (v.properties?.metadata !== undefined) {
    errs.push(forbidden(key(child(path, "properties"), "metadata"), "must not be specified in a nested context"));
  }
  return errs;
}

/** validateStructuralCompleteness: what the root's junctors name must be declared outside them. */
function completenessErrors(v: SchemaProps, s: SchemaProps | undefined, sPath: string, vPath: string): FieldError[] {
  const clauses: [SchemaProps, string][] = [];
  if (v.not !== undefined) clauses.push([v.not, child(vPath, "not")]);
  for (const k of ["allOf", "anyOf", "oneOf"] as const) {
    (v[k] ?? []).forEach((c, i) => {
      clauses.push([c, index(child(vPath, k), i)]);
    });
  }
  return clauses.flatMap(([clause, clausePath]) => nestedCompleteness(clause, s, sPath, clausePath));
}

function nestedCompleteness(v: SchemaProps, s: SchemaProps | undefined, sPath: string, vPath: string): FieldError[] {
  if (s === undefined) return [required(sPath, `because it is defined in ${vPath}`)];
  const errs = completenessErrors(v, s, sPath, vPath);
  const items = itemSchema(v);
  if (items !== undefined) {
    errs.push(...nestedCompleteness(items, itemSchema(s), child(sPath, "items"), child(vPath, "items")));
  }
  for (const [name, prop] of Object.entries(v.properties ?? {})) {
    const declared = s.properties?.[name];
    const propPath = key(child(sPath, "properties"), name);
    const clausePath = key(child(vPath, "properties"), name);
    errs.push(
      ...(declared === undefined
        ? [required(propPath, `because it is defined in ${clausePath}`)]
        : nestedCompleteness(prop, declared, propPath, clausePath)),
    );
  }
  return errs;
}
