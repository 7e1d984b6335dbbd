// kube registers DeleteOptions and WatchEvent in every group/version it serves, so their definitions list
// one x-kubernetes-group-version-kind per served group/version beside the core group's own entry.
import type { Schema } from "./schema-refs.js";

type GroupVersionKind = { group: string; kind: string; version: string };

const gvkKey = "x-kubernetes-group-version-kind";

/** `schemas` with the definitions `names` (where present) also marked as kinds of each named group/version. */
export function withKindInGroupVersions(
  schemas: Record<string, Schema>,
  names: string[],
  groupVersions: { group: string; version: string }[],
): Record<string, Schema> {
  const named = groupVersions
    .filter((gv) => gv.group !== "")
    .sort((a, b) => (a.group === b.group ? compare(a.version, b.version) : compare(a.group, b.group)));
  const out = { ...schemas };
  for (const name of names) {
    const schema = schemas[name];
    const own = schema?.[gvkKey];
    if (!schema || !Array.isArray(own) || own.length === 0) continue;
    const kinds = own as GroupVersionKind[];
    const kind = kinds[0]?.kind ?? "";
    const added = named
      .filter((gv) => !kinds.some((k) => k.group === gv.group && k.version === gv.version))
      .map((gv) => ({ group: gv.group, kind, version: gv.version }));
    out[name] = { ...schema, [gvkKey]: [...kinds, ...added] };
  }
  return out;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
