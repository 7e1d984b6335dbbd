// Every kind of the upstream OpenAPI documents has a schema and a generated type. Runs where
// ../shared/upstream exists (CI); a user's clone skips it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSchemaSet } from "../../generator/schema/schema-set.js";

const root = join(import.meta.dirname, "../..");
const upstream = join(root, "../shared/upstream/api/openapi-spec/v3");

function upstreamKinds(): Map<string, { group: string; version: string; kind: string }> {
  const kinds = new Map<string, { group: string; version: string; kind: string }>();
  for (const name of readdirSync(upstream)) {
    const doc = JSON.parse(readFileSync(join(upstream, name), "utf8"));
    for (const schema of Object.values<Record<string, unknown>>(doc.components?.schemas ?? {})) {
      for (const gvk of (schema["x-kubernetes-group-version-kind"] ?? []) as {
        group: string;
        version: string;
        kind: string;
      }[]) {
        kinds.set(`${gvk.group}/${gvk.version}/${gvk.kind}`, gvk);
      }
    }
  }
  return kinds;
}

// Collection runs even for skipped suites, so nothing here touches the upstream folder before a test.
describe.skipIf(!existsSync(upstream))("upstream coverage", () => {
  const gaKinds = () => [...upstreamKinds().values()].filter((k) => /^v\d+$/.test(k.version));

  it("finds the GA kinds of the upstream documents", () => {
    expect(gaKinds().length).toBeGreaterThan(100);
  });

  it("has a schema definition and a generated type for every GA kind", () => {
    const set = loadSchemaSet(join(root, "schemas"));
    const missing: string[] = [];
    for (const gvk of gaKinds()) {
      // Meta kinds (DeleteOptions, WatchEvent, Status) are registered in every group and live in meta/v1.
      const candidates = set.files.filter(
        (f) => (f.file.group === gvk.group && f.file.version === gvk.version) || f.id === "meta/v1",
      );
      const file = candidates.find((f) => f.file.definitions[gvk.kind]);
      const typesPath = file && join(root, "generated", file.id, "types.ts");
      const hasType =
        typesPath !== undefined &&
        existsSync(typesPath) &&
        new RegExp(`export (interface|type) ${gvk.kind}\\b`).test(readFileSync(typesPath, "utf8"));
      if (!hasType) missing.push(`${gvk.group}/${gvk.version}/${gvk.kind}`);
    }
    expect(missing).toEqual([]);
  });
});
