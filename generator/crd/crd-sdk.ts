// What `kapi sdk` writes for CRD manifests, laid out as generated/ is: <group>/<version>/types.ts for the kinds
// and client/<group>/<version>.ts plus client/index.ts from the client emitter's own code.
import { type ClientGroupVersion, clientFiles, moduleSpecifier } from "../emit/client.js";
import type { GeneratedFile } from "../emit/emitter.js";
import { typesPath } from "../emit/types.js";
import type { CrdManifest } from "./crd-manifest.js";
import { type CrdKindVersion, crdTypesModule } from "./crd-types.js";

export interface CrdSdkImports {
  /** Module exporting ApiClient and ResourceClient: a package name, or a path from the output root ("../…ts"). */
  clientModule: string;
  /** Module exporting the ObjectMeta and ListMeta types, given the same way. */
  metaModule: string;
}

interface GroupVersionKinds {
  group: string;
  version: string;
  kinds: CrdKindVersion[];
}

function byGroupVersion(crds: CrdManifest[]): GroupVersionKinds[] {
  const out = new Map<string, GroupVersionKinds>();
  for (const crd of crds) {
    for (const { name, schema } of crd.versions) {
      const key = `${crd.group}/${name}`;
      const entry = out.get(key) ?? { group: crd.group, version: name, kinds: [] };
      entry.kinds.push({ crd, schema });
      out.set(key, entry);
    }
  }
  return [...out.values()].sort((a, b) => `${a.group}/${a.version}`.localeCompare(`${b.group}/${b.version}`));
}

/** Types and typed clients of every served version of `crds`. */
export function crdSdkFiles(crds: CrdManifest[], imports: CrdSdkImports): GeneratedFile[] {
  const gvs = byGroupVersion(crds);
  const clients: ClientGroupVersion[] = gvs.map(({ group, version, kinds }) => ({
    group,
    version,
    sources: [...new Set(kinds.map((k) => k.crd.source))].sort(),
    typesFileId: `${group}/${version}`,
    kinds: kinds.map(({ crd }) => ({
      kind: crd.kind,
      listKind: crd.listKind,
      plural: crd.plural,
      namespaced: crd.namespaced,
    })),
  }));
  const types = gvs.map(({ group, version, kinds }) => {
    const path = typesPath(`${group}/${version}`);
    return { path, content: crdTypesModule(group, version, kinds, moduleSpecifier(path, imports.metaModule)) };
  });
  const runtime = {
    apiClient: imports.clientModule,
    resourceClient: imports.clientModule,
    resourceTypes: imports.clientModule,
  };
  return [...types, ...clientFiles(clients, runtime)];
}
