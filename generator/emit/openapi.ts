// OpenAPI documents of the default served set: /openapi/v2, /openapi/v3 and one v3 document per group and
// group/version, built by runtime/openapi from the served group/versions and the schemas. Beside them,
// `openapi/meta.json`: the shared definitions of schemas/meta/ and the names of those every operation refers
// to, from which the runtime builds documents for group/versions registered while it runs. They are JSON
// files the server reads when first asked for one, not modules: megabytes of data that neither typechecking
// nor a server start should pay for. JSON has no comments, so `openapi/README.md` carries the generated-file
// marker and the schema files each document comes from.
import { buildOpenApiV2 } from "../../runtime/openapi/build-v2.js";
import {
  buildOpenApiV3Group,
  buildOpenApiV3GroupVersion,
  buildOpenApiV3Index,
  documentHash,
  openApiV3Path,
} from "../../runtime/openapi/build-v3.js";
import type { OpenApiInput } from "../../runtime/openapi/openapi-input.js";
import { componentSchemas } from "../openapi/component-schemas.js";
import { documentJson } from "../openapi/document-json.js";
import { metaDefinitions, servedGroupVersions } from "../openapi/served-groups.js";
import type { SchemaSet } from "../schema/schema-set.js";
import { type Emitter, type GeneratedFile, generatedHeader } from "./emitter.js";

/** The Kubernetes release whose API kapi serves; info.version of the documents. */
export const kubernetesVersion = "v1.36.2";

/** Schema files a document's definitions come from, for the README. */
function sourcesOf(set: SchemaSet, names: string[]): string[] {
  const byPrefix = new Map(set.files.map((f) => [f.file.openapi.prefix, f.path]));
  const paths = new Set<string>();
  for (const name of names) {
    const path = byPrefix.get(name.slice(0, name.lastIndexOf(".")));
    if (path) paths.add(path);
  }
  return [...paths].sort();
}

/** The README beside the documents: the generated-file marker, then each document with its schema files. */
function readme(documents: readonly { path: string; sources: string[] }[]): string {
  const marker = generatedHeader([])
    .replace(/^\/\/ /, "")
    .trimEnd();
  const lines = [...documents]
    .sort((a, b) => a.path.localeCompare(b.path))
    .map(({ path, sources }) => `- \`${path}\`: ${sources.join(", ")}`);
  return [
    "# generated/openapi",
    "",
    marker,
    "",
    "The built-in OpenAPI documents as JSON, read by the server when first asked for (docs/openapi.md).",
    "Each file and the schema files it comes from:",
    "",
    ...lines,
    "",
  ].join("\n");
}

function schemaNames(doc: Record<string, unknown>, key: "components" | "definitions"): string[] {
  const holder = key === "components" ? (doc.components as { schemas: object }).schemas : (doc.definitions as object);
  return Object.keys(holder);
}

export const openapiEmitter: Emitter = {
  name: "openapi",
  emit(set) {
    const enabled = servedGroupVersions(set).filter((gv) => gv.enabledByDefault);
    const input: OpenApiInput = {
      schemas: componentSchemas(set),
      meta: metaDefinitions(set),
      version: kubernetesVersion,
    };
    const documents: { path: string; sources: string[]; doc: unknown }[] = [];
    const v3: Record<string, Record<string, unknown>> = {};
    for (const group of new Set(enabled.filter((gv) => gv.group !== "").map((gv) => gv.group))) {
      v3[`apis/${group}`] = buildOpenApiV3Group(group, input);
    }
    for (const gv of enabled) v3[openApiV3Path(gv)] = buildOpenApiV3GroupVersion(gv, input);
    const hashes: Record<string, string> = {};
    for (const [path, doc] of Object.entries(v3)) {
      hashes[path] = documentHash(doc);
      documents.push({ path: `v3/${path}.json`, sources: sourcesOf(set, schemaNames(doc, "components")), doc });
    }
    // Versions off by default are in no index: a server whose --runtime-config enables one registers it.
    for (const gv of servedGroupVersions(set).filter((g) => !g.enabledByDefault)) {
      const doc = buildOpenApiV3GroupVersion(gv, input);
      const path = `v3/${openApiV3Path(gv)}.json`;
      documents.push({ path, sources: sourcesOf(set, schemaNames(doc, "components")), doc });
    }
    documents.push({ path: "v3/index.json", sources: set.files.map((f) => f.path), doc: buildOpenApiV3Index(hashes) });
    const v2 = buildOpenApiV2(enabled, input);
    documents.push({ path: "v2.json", sources: sourcesOf(set, schemaNames(v2, "definitions")), doc: v2 });
    // The shared definitions of schemas/meta/ (ObjectMeta, Status, Quantity, …), which any kind may refer to.
    const metaNames = set.files
      .filter((f) => f.id.startsWith("meta/"))
      .flatMap((f) => Object.keys(f.file.definitions ?? {}).map((name) => set.openapiName({ fileId: f.id, name })))
      .sort();
    const meta = {
      version: input.version,
      meta: input.meta,
      schemas: Object.fromEntries(metaNames.map((name) => [name, input.schemas[name]])),
    };
    documents.push({ path: "meta.json", sources: sourcesOf(set, metaNames), doc: meta });
    const files: GeneratedFile[] = documents.map(({ path, doc }) => ({
      path: `openapi/${path}`,
      content: documentJson(doc),
    }));
    files.push({ path: "openapi/README.md", content: readme(documents) });
    return { files };
  },
};
