// Discovery documents of the default served set, and the builder input for every group/version so the
// runtime can rebuild them when --runtime-config enables more.
import {
  buildAggregatedDiscovery,
  buildApiGroup,
  buildApiGroupList,
  buildApiResourceList,
  buildApiVersions,
} from "../../runtime/discovery/build-discovery.js";
import { groupVersionPath, type ServedGroupVersion } from "../../runtime/discovery/served.js";
import { documentModule } from "../openapi/document-module.js";
import { servedGroupVersions } from "../openapi/served-groups.js";
import type { SchemaSet } from "../schema/schema-set.js";
import { type Emitter, type GeneratedFile, generatedHeader } from "./emitter.js";

function gvSource(set: SchemaSet, gv: { group: string; version: string }): string {
  const file = set.files.find((f) => f.file.group === gv.group && f.file.version === gv.version);
  return file?.path ?? "";
}

function servedModule(sources: string[], all: ServedGroupVersion[]): string {
  return (
    `${generatedHeader(sources)}import type { ServedGroupVersion } from "../../runtime/discovery/served.js";\n\n` +
    `export const servedGroupVersions: ServedGroupVersion[] = ${JSON.stringify(all, null, 2)};\n`
  );
}

export const discoveryEmitter: Emitter = {
  name: "discovery",
  emit(set) {
    const all = servedGroupVersions(set);
    const enabled = all.filter((gv) => gv.enabledByDefault);
    const sourcesOf = (gvs: ServedGroupVersion[]) => [...new Set(gvs.map((gv) => gvSource(set, gv)))].sort();
    const files: GeneratedFile[] = [
      { path: "discovery/served.ts", content: servedModule(sourcesOf(all), all) },
      {
        path: "discovery/api.ts",
        content: documentModule(sourcesOf(enabled.filter((gv) => gv.group === "")), buildApiVersions(enabled)),
      },
      {
        path: "discovery/apis.ts",
        content: documentModule(sourcesOf(enabled.filter((gv) => gv.group !== "")), buildApiGroupList(enabled)),
      },
      {
        path: "discovery/aggregated-api.ts",
        content: documentModule(
          sourcesOf(enabled.filter((gv) => gv.group === "")),
          buildAggregatedDiscovery(enabled, true),
        ),
      },
      {
        path: "discovery/aggregated-apis.ts",
        content: documentModule(
          sourcesOf(enabled.filter((gv) => gv.group !== "")),
          buildAggregatedDiscovery(enabled, false),
        ),
      },
    ];
    for (const group of new Set(enabled.filter((gv) => gv.group !== "").map((gv) => gv.group))) {
      const gvs = enabled.filter((gv) => gv.group === group);
      files.push({
        path: `discovery/apis/${group}.ts`,
        content: documentModule(sourcesOf(gvs), buildApiGroup(group, gvs)),
      });
    }
    for (const gv of enabled) {
      files.push({
        path: `discovery${groupVersionPath(gv)}.ts`,
        content: documentModule([gvSource(set, gv)], buildApiResourceList(gv)),
      });
    }
    return { files };
  },
};
