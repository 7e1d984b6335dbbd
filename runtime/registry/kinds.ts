// How the runtime names and reads a served kind: error names, apiVersion, storage version, status subresource,
// generation.
import { kinds } from "../../generated/registry.js";
import type { GroupThing } from "../errors/status-error.js";
import { builtinSchema, builtinVersionsOf } from "./builtin-schema.js";
import { byGroupVersionResource } from "./lookup.js";
import type { ResourceKindRecord, ServedKind } from "./served-kind.js";

/** Records of the version each built-in resource is stored in, by group and resource. */
const storageRecords = new Map<string, ResourceKindRecord>();
for (const record of kinds) {
  if (record.resource?.storageVersion && !record.resource.virtual) {
    storageRecords.set(`${record.group}/${record.resource.plural}`, record as ResourceKindRecord);
  }
}

/** Resources whose objects another resource stores (events.k8s.io events are core events): its group/resource. */
const storedAs = new Map<string, string>();
for (const record of kinds) {
  const target = record.resource?.storedAs;
  if (target !== undefined)
    storedAs.set(`${record.group}/${record.resource?.plural}`, `${target.group}/${target.resource}`);
}

/** The table's record of the version a built-in resource is stored in (its storage's, for a `storedAs` one). */
export function storageRecordOf(group: string, resource: string): ResourceKindRecord | undefined {
  const key = `${group}/${resource}`;
  return storageRecords.get(storedAs.get(key) ?? key);
}

/** Every built-in stored resource, one record each (its storage version). */
export function builtinStorageRecords(): ResourceKindRecord[] {
  return [...storageRecords.values()];
}

/** Objects of `kind`'s resource are stored in `kind`'s own group and version: reads and writes convert nothing. */
export function storedAsServed(kind: ServedKind): boolean {
  if (kind.custom !== undefined) return kind.custom.storage().version === kind.version;
  const record = storageRecordOf(kind.group, kind.resource.plural);
  return record === undefined || (record.group === kind.group && record.version === kind.version);
}

/** The kind objects of `kind`'s resource are stored as: writes convert to it. */
export function storageKindOf(kind: ServedKind): ServedKind {
  if (kind.custom !== undefined) return kind.custom.storage();
  const record = storageRecordOf(kind.group, kind.resource.plural);
  return record === undefined ? kind : kindReference(record);
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
  return { ...reference, schema: builtinSchema(record), versions: builtinVersionsOf(record.group) };
}

/** The built-in kind serving `resource` in group/version, as a reference for in-server code; throws if none. */
export function builtinKind(group: string, version: string, resource: string): ServedKind {
  const record = byGroupVersionResource(kinds, group, version, resource);
  if (record === undefined)
    throw new Error(`the registry has no ${group === "" ? "" : `${group}/`}${version} ${resource}`);
  return kindReference(record);
}
