// Discovery documents (/api, /apis, /apis/<group>, /<group-version>, aggregated v2) built from what is served.
import {
  type GroupVersionKind,
  groupVersionString,
  type ServedGroupVersion,
  type ServedResource,
  sortGroupVersions,
} from "./served.js";

type Doc = Record<string, unknown>;

/** `/api`: the core group's versions. The server adds serverAddressByClientCIDRs when it knows its address. */
export function buildApiVersions(gvs: ServedGroupVersion[]): Doc {
  const versions = sortGroupVersions(gvs.filter((gv) => gv.group === "")).map((gv) => gv.version);
  return { kind: "APIVersions", versions };
}

function groupEntry(name: string, gvs: ServedGroupVersion[]): Doc {
  const versions = gvs.map((gv) => ({ groupVersion: groupVersionString(gv), version: gv.version }));
  return { name, versions, preferredVersion: versions[0] };
}

/** Named groups with their versions, in discovery order. */
function byGroup(gvs: ServedGroupVersion[]): Map<string, ServedGroupVersion[]> {
  const groups = new Map<string, ServedGroupVersion[]>();
  for (const gv of sortGroupVersions(gvs)) {
    const list = groups.get(gv.group) ?? [];
    list.push(gv);
    groups.set(gv.group, list);
  }
  return groups;
}

/** `/apis`: every named group, preferred version first. */
export function buildApiGroupList(gvs: ServedGroupVersion[]): Doc {
  const groups = [...byGroup(gvs.filter((gv) => gv.group !== ""))].map(([name, list]) => groupEntry(name, list));
  return { kind: "APIGroupList", apiVersion: "v1", groups };
}

/** `/apis/<group>`. */
export function buildApiGroup(group: string, gvs: ServedGroupVersion[]): Doc {
  const list = sortGroupVersions(gvs.filter((gv) => gv.group === group));
  return { kind: "APIGroup", apiVersion: "v1", ...groupEntry(group, list) };
}

function sortedResources(gv: ServedGroupVersion): ServedResource[] {
  return [...gv.resources].sort((a, b) => a.plural.localeCompare(b.plural));
}

function otherGroupVersion(kind: GroupVersionKind | undefined, gv: ServedGroupVersion): Doc {
  if (!kind || (kind.group === gv.group && kind.version === gv.version)) return {};
  return { group: kind.group, version: kind.version };
}

/**
 * `/api/v1`, `/apis/<group>/<version>`: resources, then their subresources as `<plural>/<sub>`; without
 * `storageVersionHash` (the feature gate off) resources carry none.
 */
export function buildApiResourceList(gv: ServedGroupVersion, storageVersionHash = true): Doc {
  const resources: Doc[] = [];
  for (const r of sortedResources(gv)) {
    resources.push({
      name: r.plural,
      singularName: r.singular,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: r.verbs,
      ...(r.shortNames?.length ? { shortNames: r.shortNames } : {}),
      ...(r.categories?.length ? { categories: r.categories } : {}),
      ...(storageVersionHash && r.storageVersionHash ? { storageVersionHash: r.storageVersionHash } : {}),
    });
    const subs = [...(r.subresources ?? [])].sort((a, b) => a.name.localeCompare(b.name));
    for (const s of subs) {
      resources.push({
        name: `${r.plural}/${s.name}`,
        singularName: "",
        namespaced: r.namespaced,
        ...otherGroupVersion(s.kind, gv),
        kind: s.kind?.kind ?? r.kind,
        verbs: s.verbs,
      });
    }
  }
  return { kind: "APIResourceList", apiVersion: "v1", groupVersion: groupVersionString(gv), resources };
}

/**
 * The responseKind of aggregated discovery: group and version stay empty when they are the document's, except
 * for custom resources, whose discovery the apiextensions server writes with both.
 */
function responseKind(
  kind: GroupVersionKind | undefined,
  fallback: string,
  gv: ServedGroupVersion,
  custom: boolean,
): Doc {
  if (custom && kind === undefined) return { group: gv.group, version: gv.version, kind: fallback };
  const other = kind && (kind.group !== gv.group || kind.version !== gv.version);
  return { group: other ? kind.group : "", version: other ? kind.version : "", kind: kind?.kind ?? fallback };
}

function discoveryVersion(gv: ServedGroupVersion): Doc {
  const resources = sortedResources(gv).map((r) => {
    const subs = [...(r.subresources ?? [])].sort((a, b) => a.name.localeCompare(b.name));
    return {
      resource: r.plural,
      responseKind: responseKind(undefined, r.kind, gv, r.custom === true),
      scope: r.namespaced ? "Namespaced" : "Cluster",
      singularResource: r.singular,
      verbs: r.verbs,
      ...(r.shortNames?.length ? { shortNames: r.shortNames } : {}),
      ...(r.categories?.length ? { categories: r.categories } : {}),
      ...(subs.length
        ? {
            subresources: subs.map((s) => ({
              subresource: s.name,
              responseKind: responseKind(s.kind, r.kind, gv, r.custom === true),
              verbs: s.verbs,
            })),
          }
        : {}),
    };
  });
  return { version: gv.version, resources, freshness: "Current" };
}

/**
 * Aggregated discovery (apidiscovery.k8s.io/v2 APIGroupDiscoveryList): for `/apis` with core false, for `/api`
 * with core true.
 */
export function buildAggregatedDiscovery(gvs: ServedGroupVersion[], core: boolean): Doc {
  const served = gvs.filter((gv) => (gv.group === "") === core);
  const items = [...byGroup(served)].map(([name, list]) => ({
    metadata: core ? {} : { name },
    versions: list.map(discoveryVersion),
  }));
  return { kind: "APIGroupDiscoveryList", apiVersion: "apidiscovery.k8s.io/v2", metadata: {}, items };
}
