// Pure lookups over the generated kind table (generated/registry.ts), the way clients name resources.
import type { KindRecord } from "./kind-record.js";
import type { ResourceKindRecord } from "./served-kind.js";

function isServed(record: KindRecord): record is ResourceKindRecord {
  return record.resource !== undefined;
}

/** Preferred first: lower group priority, then lower version priority; unprioritized records last. */
function byPreference(a: KindRecord, b: KindRecord): number {
  const pa = a.priority ?? { group: Number.MAX_SAFE_INTEGER, version: Number.MAX_SAFE_INTEGER };
  const pb = b.priority ?? { group: Number.MAX_SAFE_INTEGER, version: Number.MAX_SAFE_INTEGER };
  return pa.group - pb.group || pa.version - pb.version;
}

export function byGroupVersionKind(
  table: readonly KindRecord[],
  group: string,
  version: string,
  kind: string,
): KindRecord | undefined {
  return table.find((r) => r.group === group && r.version === version && r.kind === kind);
}

/** The served kind at a resource (plural) of a group/version. */
export function byGroupVersionResource(
  table: readonly KindRecord[],
  group: string,
  version: string,
  resource: string,
): ResourceKindRecord | undefined {
  return table
    .filter(isServed)
    .find((r) => r.group === group && r.version === version && r.resource.plural === resource);
}

/** Every served kind a short name stands for, preferred group and version first (`deploy` → apps/v1 Deployment). */
export function byShortName(table: readonly KindRecord[], shortName: string): ResourceKindRecord[] {
  return table
    .filter(isServed)
    .filter((r) => r.resource.shortNames.includes(shortName))
    .sort(byPreference);
}
