// Defaults in a structural CRD schema must hold what the schema allows (ValidateDefaults): nothing
// pruning would drop ("must not have unknown fields"), the schema's value validation, and the
// x-kubernetes-validations rules of the defaulted node. additionalProperties are not followed (kube
// forbids defaults there where it matters), nor the metadata of a resource (defaults are forbidden in
// top-level metadata; embedded resources' metadata keep their values).
import { ruleValidatorFor } from "../../cel/rules/rule-validator.js";
import { type FieldError, invalid } from "../../errors/field-error.js";
import { child, key } from "../../errors/field-path.js";
import { asObject, type JsonObject } from "../../validation/walk.js";
import { compileValueValidator } from "../schema/value-validation.js";
import { additionalSchema, itemSchema, type SchemaProps, toCelSchema } from "./schema-props.js";

const resourceMeta = new Set(["apiVersion", "kind", "metadata"]);

/** Whether pruning `value` with schema `s` would drop anything (kube's pruning algorithm). */
export function hasUnknownFields(value: unknown, s: SchemaProps | undefined): boolean {
  if (s?.["x-kubernetes-preserve-unknown-fields"] === true) return unknownBelowPreserved(value, s);
  if (Array.isArray(value)) return value.some((v) => hasUnknownFields(v, s === undefined ? undefined : itemSchema(s)));
  const obj = asObject(value);
  if (obj === undefined) return false;
  if (s === undefined) return Object.keys(obj).length > 0;
  return Object.entries(obj).some(([k, v]) => {
    if (s["x-kubernetes-embedded-resource"] === true && resourceMeta.has(k)) return false;
    const prop = s.properties?.[k];
    if (prop !== undefined) return hasUnknownFields(v, prop);
    if (s.additionalProperties !== undefined) return hasUnknownFields(v, additionalSchema(s));
    return true;
  });
}

/** Below x-kubernetes-preserve-unknown-fields unknown fields stay; declared ones are still pruned. */
function unknownBelowPreserved(value: unknown, s: SchemaProps): boolean {
  if (Array.isArray(value)) {
    const items = itemSchema(s);
    return items !== undefined && value.some((v) => unknownBelowPreserved(v, items));
  }
  const obj = asObject(value);
  if (obj === undefined) return false;
  return Object.entries(obj).some(([k, v]) => {
    const prop = s.properties?.[k] ?? additionalSchema(s);
    return prop !== undefined && hasUnknownFields(v, prop);
  });
}

/** The errors of every default in the schema tree (its root a resource). */
export function defaultValueErrors(root: SchemaProps, path: string, requirePruned: boolean): FieldError[] {
  return visit(root, path, true, false, requirePruned);
}

function visit(
  s: SchemaProps,
  path: string,
  isResource: boolean,
  insideMeta: boolean,
  requirePruned: boolean,
): FieldError[] {
  const embedded = isResource || s["x-kubernetes-embedded-resource"] === true;
  const inMeta = embedded ? false : insideMeta;
  const errs: FieldError[] = [];
  if (s.default !== undefined && !inMeta) errs.push(...defaultErrors(s, child(path, "default"), requirePruned));
  const items = itemSchema(s);
  if (items !== undefined) errs.push(...visit(items, child(path, "items"), false, inMeta, requirePruned));
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    const meta = inMeta || (embedded && resourceMeta.has(name));
    errs.push(...visit(prop, key(child(path, "properties"), name), false, meta, requirePruned));
  }
  return errs;
}

function defaultErrors(s: SchemaProps, path: string, requirePruned: boolean): FieldError[] {
  const value = s.default;
  const errs: FieldError[] = [];
  if (requirePruned && hasUnknownFields(value, s)) errs.push(invalid(path, value, "must not have unknown fields"));
  const valueErrs = compileValueValidator(s as JsonObject)(value, path).errors;
  if (valueErrs.length > 0) return [...errs, ...valueErrs];
  const rules = ruleValidatorFor(toCelSchema(s), s["x-kubernetes-embedded-resource"] === true, {});
  return [...errs, ...(rules?.validate(value, value, { path }).errors ?? [])];
}
