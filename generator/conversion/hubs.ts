// Which kinds exist in several versions of a group, and which version each converts through. kapi has no internal
// version, so the hub is the storage version; a kind that is never stored uses its group's preferred version.
import { groupDir, type KindInfo, type SchemaSet } from "../schema/schema-set.js";

export interface MultiVersionKind {
  group: string;
  kind: string;
  hub: string;
  /** Every version declaring the kind, hub included, sorted. */
  versions: string[];
  /** Schema file of each version ("autoscaling/v1"). */
  fileIds: Record<string, string>;
}

function versionPriority(info: KindInfo): number {
  return info.file.file.priority?.version ?? Number.MAX_SAFE_INTEGER;
}

/** Kinds declared by more than one version of their group, sorted by group then kind. */
export function multiVersionKinds(set: SchemaSet): MultiVersionKind[] {
  const byKind = new Map<string, KindInfo[]>();
  for (const info of set.kinds()) {
    const key = `${info.gvk.group}/${info.gvk.kind}`;
    byKind.set(key, [...(byKind.get(key) ?? []), info]);
  }
  const out: MultiVersionKind[] = [];
  for (const infos of byKind.values()) {
    if (infos.length < 2) continue;
    const first = infos[0];
    if (!first) continue;
    const stored = infos.find((i) => i.entry.resource?.storageVersion === true);
    const preferred = [...infos].sort(
      (a, b) => versionPriority(a) - versionPriority(b) || a.gvk.version.localeCompare(b.gvk.version),
    )[0];
    const hub = (stored ?? preferred ?? first).gvk.version;
    out.push({
      group: first.gvk.group,
      kind: first.gvk.kind,
      hub,
      versions: infos.map((i) => i.gvk.version).sort(),
      fileIds: Object.fromEntries(infos.map((i) => [i.gvk.version, i.file.id])),
    });
  }
  return out.sort((a, b) => groupDir(a.group).localeCompare(groupDir(b.group)) || a.kind.localeCompare(b.kind));
}
