// OpenAPI documents of the default served set: /openapi/v2, /openapi/v3 and one v3 document per group and
// group/version. The documents are built by runtime/openapi from the served group/versions and the schemas.
import { buildOpenApiV2 } from "../../runtime/openapi/build-v2.js";
import {
  buildOpenApiV3Group,
  buildOpenApiV3GroupVersion,
  buildOpenApiV3Index,
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
      groupVersions: enabled,
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
    for (const [path, doc] of Object.entries(v3)) {
      files.push({
        path: `openapi/v3/${path}.ts`,
        content: documentModule(sourcesOf(set, schemaNames(doc, "components")), doc),
      });
    }
    const index = buildOpenApiV3Index(v3);
    files.push({
      path: "openapi/v3/index.ts",
      content: documentModule(
        set.files.map((f) => f.path),
        index,
      ),
    });
    const v2 = buildOpenApiV2(enabled, input);
    files.push({ path: "openapi/v2.ts", content: documentModule(sourcesOf(set, schemaNames(v2, "definitions")), v2) });
    return { files };
  },
};
