// Rules ConfigMaps and Secrets share in kube-apiserver: key names (IsConfigMapKey), the 1 MiB limit on
// their data, and `immutable: true` freezing the data once stored.
import { type FieldError, forbidden, invalid } from "../errors/field-error.js";
import { key } from "../errors/field-path.js";
import { semanticEqual } from "../validation/field-rules.js";
import { asObject, type JsonObject } from "../validation/walk.js";

/** core.MaxSecretSize, which ConfigMaps share. */
export const maxDataSize = 1024 * 1024;

const configKey = /^[-._a-zA-Z0-9]+$/;

/** IsConfigMapKey: a file name a volume can hold. */
export function configKeyErrors(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 253) errs.push("must be no more than 253 characters");
  if (!configKey.test(name)) {
    errs.push(
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    );
  }
  if (name === ".") errs.push("must not be '.'");
  else if (name === "..") errs.push("must not be '..'");
  else if (name.startsWith("..")) errs.push("must not start with '..'");
  return errs;
}

/** Key errors of a data map, reported on `path[key]` with the key as the value. */
export function dataKeyErrors(data: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const name of Object.keys(asObject(data) ?? {})) {
    for (const msg of configKeyErrors(name)) errs.push(invalid(key(path, name), name, msg));
  }
  return errs;
}

/** Bytes of a map's values: text as UTF-8, or base64 as the bytes it decodes to. */
export function dataBytes(data: unknown, encoding: "utf8" | "base64"): number {
  let size = 0;
  for (const v of Object.values(asObject(data) ?? {})) {
    if (typeof v === "string") size += Buffer.byteLength(v, encoding);
  }
  return size;
}

const frozen = "field is immutable when `immutable` is set";

/** Once stored with `immutable: true`, the flag and the named data fields may not change. */
export function immutableDataErrors(obj: JsonObject, old: JsonObject, fields: readonly string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (obj.immutable !== true) errs.push(forbidden("immutable", frozen));
  for (const field of fields) {
    if (!semanticEqual(asObject(obj[field]) ?? {}, asObject(old[field]) ?? {})) errs.push(forbidden(field, frozen));
  }
  return errs;
}
