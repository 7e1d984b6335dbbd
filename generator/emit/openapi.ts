// OpenAPI documents of the default served set: /openapi/v2, /openapi/v3 and one v3 document per group and
// group/version, built by runtime/openapi from the served group/versions and the schemas. Beside them,
// `openapi/meta.ts`: the shared definitions of schemas/meta/ and the names of those every operation refers
// to, from which the runtime builds documents for group/versions registered while it runs.
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
import { documentModule } from "../openapi/document-module.js";
import { metaDefinitions, servedGroupVersions } from "../openapi/served-groups.js";
import type { SchemaSet } from "../schema/schema-set.js";
import type { Emitter, GeneratedFile } from "./emitter.js";

/** The Kubernetes release whose API kapi serves; info.version of the documents. */
export const kubernetesVersion = "v1.36.2";

/** Schema files a document's definitions come from, for its generated header. */
function sourcesOf(set: SchemaSet, names: string[]): string[] {
  const byPrefix = new Map(set.files.map((f) => [f.file.openapi.prefix, f.path]));
  const paths = new Set<string>();
  for (const name of names) {
    const path = byPrefix.get(name.slice(0, name.lastIndexOf(".")));
    if (path) paths.add(path);
  }
  return [...paths].sort();
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
    const files: GeneratedFile[] = [];
    const v3: Record<string, Record<string, unknown>> = {};
    for (const group of new Set(enabled.filter((gv) => gv.group !== "").map((gv) => gv.group))) {
      v3[`apis/${group}`] = buildOpenApiV3Group(group, input);
    }
    for (const gv of enabled) v3[openApiV3Path(gv)] = buildOpenApiV3GroupVersion(gv, input);
    const hashes: Record<string, string> = {};
    for (const [path, doc] of Object.entries(v3)) {
      hashes[path] = documentHash(doc);
      files.push({
        path: `openapi/v3/${path}.ts`,
        content: documentModule(sourcesOf(set, schemaNames(doc, "components")), doc),
      });
    }
    // Versions off by default are in no index: a server whose --runtime-config enables one registers it.
    for (const gv of servedGroupVersions(set).filter((g) => !g.enabledByDefault)) {
      const doc = buildOpenApiV3GroupVersion(gv, input);
      const path = openApiV3Path(gv);
      files.push({
        path: `openapi/v3/${path}.ts`,
        content: documentModule(sourcesOf(set, schemaNames(doc, "components")), doc),
      });
    }
    files.push({
      path: "openapi/v3/index.ts",
      content: documentModule(
        set.files.map((f) => f.path),
        buildOpenApiV3Index(hashes),
      ),
    });
    const v2 = buildOpenApiV2(enabled, input);
    files.push({ path: "openapi/v2.ts", content: documentModule(sourcesOf(set, schemaNames(v2, "definitions")), v2) });
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
    files.push({ path: "openapi/meta.ts", content: documentModule(sourcesOf(set, metaNames), meta) });
    return { files };
  },
};
