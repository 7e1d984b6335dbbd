// From the kind served at a request's version to where its objects are kept: the storage version of the
// same resource, found in the generated registry.
import { kinds } from "../../generated/registry.js";
import type { GroupThing } from "../errors/status-error.js";
import type { ServedKind } from "../registry/lookup.js";

const storageKinds = new Map<string, ServedKind>();

function resourceKey(group: string, resource: string): string {
  return `${group}/${resource}`;
}

for (const record of kinds) {
  if (record.resource?.storageVersion && !record.resource.virtual) {
    storageKinds.set(resourceKey(record.group, record.resource.plural), record as ServedKind);
  }
}

/** The record of the version objects of `kind`'s resource are stored in. */
export function storageKindOf(kind: ServedKind): ServedKind {
  if (kind.custom !== undefined) return kind.custom.storage();
  return storageKinds.get(resourceKey(kind.group, kind.resource.plural)) ?? kind;
}

/** Every stored resource, one record each (its storage version). */
export function storedResources(): ServedKind[] {
  return [...storageKinds.values()];
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
