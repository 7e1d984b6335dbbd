// Our discovery documents against the ones captured from kube-apiserver v1.36.2 (with alpha and beta
// versions enabled, so versions are compared one by one, whatever their default).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { servedGroupVersions } from "../../generator/openapi/served-groups.js";
import { loadSchemaSet } from "../../generator/schema/schema-set.js";
import { buildAggregatedDiscovery, buildApiResourceList } from "../../runtime/discovery/build-discovery.js";
import { groupVersionString } from "../../runtime/discovery/served.js";

const upstream = join(import.meta.dirname, "../../../shared/upstream/api/discovery");

type Entry = Record<string, unknown>;

/**
 * Schema data kapi cannot express yet: kube-apiserver stores CustomResourceDefinitions as apiextensions.k8s.io
 * v1beta1, a version schemas/ does not have, so the hash differs. Listed here so the test notices a fix.
 */
const knownDifferences: Record<string, { ours: string; theirs: string }> = {
  "apiextensions.k8s.io/v1 customresourcedefinitions": { ours: "M5uH+AlWATY=", theirs: "jfWCUB31mvA=" },
};

function withoutKnownDifferences(gv: string, entries: Record<string, Entry>, side: "ours" | "theirs"): void {
  for (const [name, entry] of Object.entries(entries)) {
    const known = knownDifferences[`${gv} ${name}`];
    if (!known) continue;
    expect(entry.storageVersionHash).toBe(known[side]);
    delete entry.storageVersionHash;
  }
}

function read(file: string): Entry {
  return JSON.parse(readFileSync(join(upstream, file), "utf8")) as Entry;
}

function byKey(list: Entry[], key: string): Record<string, Entry> {
  return Object.fromEntries(list.map((e) => [String(e[key]), e]));
}

describe.skipIf(!existsSync(upstream))("discovery parity with kube-apiserver v1.36.2", () => {
  const served = servedGroupVersions(loadSchemaSet(join(import.meta.dirname, "../../schemas")));
  const withUpstream = served.filter((gv) =>
    existsSync(join(upstream, gv.group === "" ? "api__v1.json" : `apis__${gv.group}__${gv.version}.json`)),
  );

  it("serves every group/version upstream serves", () => {
    const ours = new Set(served.map(groupVersionString));
    const theirs = (read("apis.json").groups as { versions: { groupVersion: string }[] }[]).flatMap((g) =>
      g.versions.map((v) => v.groupVersion),
    );
    expect(theirs.filter((gv) => !ours.has(gv))).toEqual([]);
  });

  it.each(withUpstream.map((gv) => [groupVersionString(gv), gv] as const))("APIResourceList %s", (_, gv) => {
    const file = gv.group === "" ? "api__v1.json" : `apis__${gv.group}__${gv.version}.json`;
    const theirs = byKey(read(file).resources as Entry[], "name");
    const ours = byKey(buildApiResourceList(gv).resources as Entry[], "name");
    withoutKnownDifferences(groupVersionString(gv), theirs, "theirs");
    withoutKnownDifferences(groupVersionString(gv), ours, "ours");
    expect(ours).toEqual(theirs);
  });

  it("aggregated discovery v2 of every upstream group/version", () => {
    const theirs = read("aggregated_v2.json").items as { metadata: { name: string }; versions: Entry[] }[];
    const ours = buildAggregatedDiscovery(served, false).items as typeof theirs;
    const index = (items: typeof theirs) =>
      Object.fromEntries(
        items.flatMap((g) =>
          g.versions.map((v) => [`${g.metadata.name}/${v.version}`, byKey(v.resources as Entry[], "resource")]),
        ),
      );
    const mine = index(ours);
    for (const [gv, resources] of Object.entries(index(theirs)))
      expect({ gv, resources: mine[gv] }).toEqual({ gv, resources });
  });
});
