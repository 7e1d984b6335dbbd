// How the runtime names and reads a served kind: error names, apiVersion, storage version, status subresource,
// generation.
import { kinds } from "../../generated/registry.js";
import type { GroupThing } from "../errors/status-error.js";
import { builtinSchema, builtinVersions } from "./builtin-schema.js";
import type { ResourceKindRecord, ServedKind } from "./served-kind.js";

/** Records of the version each built-in resource is stored in, by group and resource. */
const storageRecords = new Map<string, ResourceKindRecord>();
for (const record of kinds) {
  if (record.resource?.storageVersion && !record.resource.virtual) {
    storageRecords.set(`${record.group}/${record.resource.plural}`, record as ResourceKindRecord);
  }
}

/** The table's record of the version a built-in resource is stored in. */
export function storageRecordOf(group: string, resource: string): ResourceKindRecord | undefined {
  return storageRecords.get(`${group}/${resource}`);
}

/** Every built-in stored resource, one record each (its storage version). */
export function builtinStorageRecords(): ResourceKindRecord[] {
  return [...storageRecords.values()];
}

/** The version objects of `kind`'s resource are stored in. */
export function storageVersionOf(kind: ServedKind): string {
  if (kind.custom !== undefined) return kind.custom.storage().version;
  return storageRecordOf(kind.group, kind.resource.plural)?.version ?? kind.version;
}

/** How errors name the resource: `deployments.apps`. */
export function groupResource(kind: ServedKind): GroupThing {
  return { group: kind.group, name: kind.resource.plural };
}

/** How Invalid errors name the kind: `Deployment.apps`. */
export function groupKind(kind: ServedKind): GroupThing {
  return { group: kind.group, name: kind.kind };
}

export function apiVersionOf(kind: { group: string; version: string }): string {
  return kind.group === "" ? kind.version : `${kind.group}/${kind.version}`;
}

/** The kind has a status subresource: spec and status are written apart. */
export function hasStatus(kind: ServedKind): boolean {
  return kind.resource.subresources.some((s) => s.name === "status");
}

/** The kind keeps `metadata.generation`: as its strategy says, else when it has a status subresource. */
export function tracksGeneration(kind: ServedKind): boolean {
  return kind.strategy?.tracksGeneration ?? hasStatus(kind);
}

/** A table record as a reference to its kind, for in-server code that names kinds: ResourceApi serves it. */
export function kindReference(record: ResourceKindRecord): ServedKind {
  const { strategy: _name, ...reference } = record;
  return { ...reference, schema: builtinSchema(record), versions: builtinVersions };
}
