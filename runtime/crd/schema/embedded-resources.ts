// Validation of x-kubernetes-embedded-resource objects, as the apiextensions server's objectmeta.Validate
// does it for everything below the root: apiVersion and kind required and well formed, metadata valid
// ObjectMeta of a path-segment name (namespaced when it names a namespace). The root's own metadata is
// the strategy's business.

import { type FieldError, invalid, required } from "../../errors/field-error.js";
import { child, index, key } from "../../errors/field-path.js";
import { isJsonObject, type JsonObject } from "../../object/json-object.js";
import { dns1035LabelErrors } from "../../validation/name-formats.js";
import { validateObjectMeta } from "../../validation/object-meta.js";
import type { SchemaNode } from "./schema-node.js";

/** Go's name of a JSON value's type in an unmarshal error. */
function goJsonKind(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (typeof value === "boolean") return "bool";
  return typeof value;
}

function apiVersionErrors(value: unknown, path: string): FieldError[] {
  if (typeof value !== "string") return [invalid(path, value, "must be a string")];
  if (value === "") return [required(path)];
  if (value !== "/" && value.split("/").length > 2) {
    return [invalid(path, value, `unexpected GroupVersion string: ${value}`)];
  }
  return [];
}

function kindErrors(value: unknown, path: string): FieldError[] {
  if (typeof value !== "string") return [invalid(path, value, "must be a string")];
  if (value === "") return [required(path)];
  const errs = dns1035LabelErrors(value.toLowerCase());
  return errs.length === 0
    ? []
    : [invalid(path, value, `may have mixed case, but should otherwise match: ${errs.join(",")}`)];
}

function metadataErrors(value: unknown, path: string): FieldError[] {
  if (value !== null && !isJsonObject(value)) {
    return [invalid(path, value, `json: cannot unmarshal ${goJsonKind(value)} into Go value of type v1.ObjectMeta`)];
  }
  const meta: JsonObject = { ...(value ?? {}) };
  // kube names the object when it has no name, so that only the rest of its metadata is judged.
  if (typeof meta.name !== "string" || meta.name === "") meta.name = "fakename";
  const namespaced = typeof meta.namespace === "string" && meta.namespace !== "";
  return validateObjectMeta(meta, { namespaced, nameFormat: "path-segment" }, path);
}

function embeddedResourceErrors(obj: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!Object.hasOwn(obj, "apiVersion")) errs.push(required(child(path, "apiVersion")));
  if (!Object.hasOwn(obj, "kind")) errs.push(required(child(path, "kind")));
  for (const [k, v] of Object.entries(obj)) {
    if (k === "apiVersion") errs.push(...apiVersionErrors(v, child(path, k)));
    else if (k === "kind") errs.push(...kindErrors(v, child(path, k)));
    else if (k === "metadata") errs.push(...metadataErrors(v, child(path, k)));
  }
  return errs;
}

/** The errors of every embedded resource in `x` (the root is the strategy's). */
export function embeddedResourcesErrors(x: unknown, s: SchemaNode | null | undefined, path = ""): FieldError[] {
  if (!s?.embeddedBelow) return [];
  if (Array.isArray(x)) return x.flatMap((item, i) => embeddedResourcesErrors(item, s.items, index(path, i)));
  if (!isJsonObject(x)) return [];
  const errs = s.embeddedResource ? embeddedResourceErrors(x, path) : [];
  for (const [k, v] of Object.entries(x)) {
    const prop = s.properties.get(k);
    if (prop !== undefined) errs.push(...embeddedResourcesErrors(v, prop, child(path, k)));
    else if (s.additionalProperties) errs.push(...embeddedResourcesErrors(v, s.additionalProperties, key(path, k)));
  }
  return errs;
}
