// status.storedVersions: every version objects may be stored in. The storage version is added when a
// write makes it the storage version; a version stays listed (and in spec.versions) until a storage
// migration removes it.
import { type FieldError, invalid } from "../../errors/field-error.js";
import { index } from "../../errors/field-path.js";
import { asObject, listItems } from "../../validation/walk.js";
import type { Version } from "./internal-spec.js";

const path = "status.storedVersions";

/** The version marked storage, if any. */
export function storageVersion(spec: unknown): string | undefined {
  for (const v of listItems(asObject(spec)?.versions)) {
    const version = asObject(v);
    if (version?.storage === true && typeof version.name === "string") return version.name;
  }
  return undefined;
}

/** Adds the storage version to status.storedVersions when missing (PrepareForCreate, PrepareForUpdate). */
export function recordStorageVersion(obj: Record<string, unknown>): void {
  const version = storageVersion(obj.spec);
  if (version === undefined) return;
  const status = asObject(obj.status) ?? {};
  obj.status = status;
  const stored = Array.isArray(status.storedVersions) ? status.storedVersions : [];
  if (!stored.includes(version)) status.storedVersions = [...stored, version];
}

/** ValidateCustomResourceDefinitionStoredVersions. */
export function validateStoredVersions(storedValue: unknown, versions: readonly Version[]): FieldError[] {
  const stored = listItems(storedValue).filter((v): v is string => typeof v === "string");
  if (stored.length === 0) return [invalid(path, stored, "must have at least one stored version")];
  const errs: FieldError[] = [];
  const remaining = new Map(stored.map((v, i) => [v, i]));
  for (const v of versions) {
    if (v.storage && !remaining.has(v.name)) {
      errs.push(invalid(path, stored, `must have the storage version ${v.name}`));
    }
    remaining.delete(v.name);
  }
  for (const [v, i] of remaining) {
    const detail = `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`;
    errs.push(invalid(index(path, i), v, detail));
  }
  return errs;
}
