// The served documents against the ones kube-apiserver v1.36.2 serves: the markers clients act on
// (group-version-kind, patch strategy and merge key, list and map types) and every operation's id, action,
// kind and media types. Descriptions are not compared: kapi copies no prose. Runs where ../shared/upstream exists.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OpenApiDocuments } from "../../../runtime/openapi/openapi-documents.js";
import { readPackageJson } from "../../../runtime/package-files.js";

const upstream = join(import.meta.dirname, "../../../../shared/upstream/api/openapi-spec");

type Json = Record<string, unknown>;

const v2Document = await readPackageJson<Json>("generated/openapi/v2.json");
const v3Index = await readPackageJson<Json>("generated/openapi/v3/index.json");

/** `Kind.path.to.field.x-kubernetes-…` → value, following properties, items and additionalProperties. */
function markers(schema: unknown, at: string, out: Map<string, string>, skip: (key: string) => boolean): void {
  if (typeof schema !== "object" || schema === null) return;
  for (const [key, value] of Object.entries(schema)) {
    if ((key.startsWith("x-kubernetes-") || key === "$ref" || key === "type") && !skip(`${at}.${key}`)) {
      out.set(`${at}.${key}`, JSON.stringify(value));
    }
    if (key === "properties")
      for (const [name, p] of Object.entries(value as Json)) markers(p, `${at}.${name}`, out, skip);
    if (key === "items" || key === "additionalProperties") markers(value, `${at}[]`, out, skip);
    // kube wraps a `$ref` in allOf when the property has a description; kapi has none to keep beside it.
    if (key === "allOf") for (const s of value as Json[]) markers(s, at, out, skip);
  }
}

function markerDifferences(ours: Json, theirs: Json, skip: (key: string) => boolean = () => false): string[] {
  const differences: string[] = [];
  for (const [name, schema] of Object.entries(ours)) {
    if (!(name in theirs)) {
      differences.push(`${name}: not upstream`);
      continue;
    }
    const a = new Map<string, string>();
    const b = new Map<string, string>();
    markers(schema, name, a, skip);
    markers(theirs[name], name, b, skip);
    for (const key of new Set([...a.keys(), ...b.keys()])) {
      if (a.get(key) !== b.get(key)) differences.push(`${key}: ${a.get(key)} vs ${b.get(key)}`);
    }
  }
  return differences;
}

function operationDifferences(ours: Json, theirs: Json, keys: string[]): string[] {
  const differences: string[] = [];
  for (const [path, item] of Object.entries(ours)) {
    const other = theirs[path] as Record<string, Json> | undefined;
    if (!other) {
      differences.push(`${path}: not upstream`);
      continue;
    }
    for (const [method, op] of Object.entries(item as Record<string, Json>)) {
      if (method === "parameters") continue;
      for (const key of keys) {
        const a = JSON.stringify(op[key]);
        const b = JSON.stringify(other[method]?.[key]);
        if (a !== b) differences.push(`${method} ${path} ${key}: ${a} vs ${b}`);
      }
    }
  }
  return differences;
}

const operationKeys = ["operationId", "x-kubernetes-action", "x-kubernetes-group-version-kind"];

describe.skipIf(!existsSync(upstream))("OpenAPI documents against kube-apiserver v1.36.2's", () => {
  const documents = new OpenApiDocuments();
  const read = (file: string) => JSON.parse(readFileSync(join(upstream, file), "utf8")) as Json;

  it("v3: the same markers on every definition and the same operations on the same paths", async () => {
    const paths = Object.keys((v3Index as { paths: Json }).paths);
    expect(paths.length).toBeGreaterThan(40);
    const differences: string[] = [];
    for (const path of paths) {
      const served = await documents.v3(path);
      const ours = JSON.parse(served?.json.bytes.toString() ?? "{}") as Json;
      const theirs = read(`v3/${path.replaceAll("/", "__")}_openapi.json`);
      const schemas = (doc: Json) => (doc.components as { schemas: Json }).schemas;
      differences.push(...markerDifferences(schemas(ours), schemas(theirs)).map((d) => `${path}: ${d}`));
      const ourPaths = ours.paths as Json;
      const theirPaths = theirs.paths as Json;
      expect(Object.keys(ourPaths).sort(), path).toEqual(Object.keys(theirPaths).sort());
      differences.push(...operationDifferences(ourPaths, theirPaths, operationKeys).map((d) => `${path}: ${d}`));
    }
    expect(differences).toEqual([]);
  });

  it("v2: the same markers on every definition and the same operations, media types included", () => {
    const theirs = read("swagger.json");
    // Upstream lists every group/version Kubernetes ever registered DeleteOptions and WatchEvent in.
    const registeredEverywhere = (key: string) =>
      /(DeleteOptions|WatchEvent)\.x-kubernetes-group-version-kind$/.test(key);
    expect(markerDifferences(v2Document.definitions as Json, theirs.definitions as Json, registeredEverywhere)).toEqual(
      [],
    );
    expect(
      operationDifferences(v2Document.paths as Json, theirs.paths as Json, [...operationKeys, "produces", "consumes"]),
    ).toEqual([]);
  });
});
