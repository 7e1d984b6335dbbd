// SchemaSet → the plain description of served group/versions the discovery and OpenAPI builders take.
import type {
  GroupVersionKind,
  QueryParameter,
  ServedGroupVersion,
  ServedResource,
  ServedSubresource,
} from "../../runtime/discovery/served.js";
import { storageVersionHash } from "../../runtime/discovery/storage-version-hash.js";
import type { MetaDefinitions } from "../../runtime/openapi/openapi-routes.js";
import type { ResourceMapping, SchemaNode, Subresource } from "../schema/model.js";
import { groupDir, type KindInfo, type SchemaSet } from "../schema/schema-set.js";

/** Every group/version with at least one served kind, enabled or not. */
export function servedGroupVersions(set: SchemaSet): ServedGroupVersion[] {
  const storage = storageHashes(set);
  const out: ServedGroupVersion[] = [];
  for (const file of set.files) {
    const { group, version } = file.file;
    if (group === undefined || version === undefined) continue;
    const kinds = set.servedKinds().filter((k) => k.file === file);
    if (kinds.length === 0) continue;
    out.push({
      group,
      version,
      groupPriority: file.file.priority?.group ?? 0,
      versionPriority: file.file.priority?.version ?? 0,
      enabledByDefault: file.file.enabledByDefault === true,
      resources: kinds.map((k) => resource(set, k, storage)),
    });
  }
  return out;
}

/** The definitions meta/v1.yaml provides for every group/version's operations. */
export function metaDefinitions(set: SchemaSet): MetaDefinitions {
  const name = (n: string) => set.openapiName({ fileId: "meta/v1", name: n });
  return {
    apiResourceList: name("APIResourceList"),
    apiGroup: name("APIGroup"),
    deleteOptions: name("DeleteOptions"),
    patch: name("Patch"),
    status: name("Status"),
    watchEvent: name("WatchEvent"),
  };
}

/** `<group>/<plural>` → hash of the storage version's group/version/kind. */
function storageHashes(set: SchemaSet): Map<string, string> {
  const out = new Map<string, string>();
  for (const k of set.servedKinds()) {
    if (k.entry.resource?.storageVersion !== true) continue;
    out.set(`${k.gvk.group}/${k.entry.resource.plural}`, storageVersionHash(k.gvk.group, k.gvk.version, k.gvk.kind));
  }
  return out;
}

function resource(set: SchemaSet, k: KindInfo, storage: Map<string, string>): ServedResource {
  const r = k.entry.resource as ResourceMapping;
  const stored = r.storedAs ?? { group: k.gvk.group, resource: r.plural };
  const hash = r.virtual ? undefined : storage.get(`${stored.group}/${stored.resource}`);
  const subresources = (r.subresources ?? []).map((s) => subresource(set, k, s));
  return {
    plural: r.plural,
    singular: r.singular,
    kind: k.entry.kind,
    namespaced: r.scope === "Namespaced",
    verbs: r.verbs,
    ...(r.shortNames?.length ? { shortNames: r.shortNames.map(String) } : {}),
    ...(r.categories?.length ? { categories: r.categories } : {}),
    ...(subresources.length ? { subresources } : {}),
    ...(hash ? { storageVersionHash: hash } : {}),
    definition: set.openapiName({ fileId: k.file.id, name: k.entry.kind }),
    ...(k.entry.listKind ? { listDefinition: set.openapiName({ fileId: k.file.id, name: k.entry.listKind }) } : {}),
  };
}

function subresource(set: SchemaSet, parent: KindInfo, s: Subresource): ServedSubresource {
  const out: ServedSubresource = { name: s.name, verbs: s.verbs };
  if (s.kind) {
    const fileId = `${groupDir(s.kind.group)}/${s.kind.version}`;
    const id = { fileId, name: s.kind.kind };
    out.kind = s.kind as GroupVersionKind;
    out.definition = set.openapiName(id);
    // Options kinds (PodExecOptions, PodProxyOptions) mean a connection whose options are query parameters.
    if (s.kind.kind.endsWith("Options")) {
      const options = set.definition(id);
      out.connect = { parameters: queryParameters(options), withPath: options.properties?.path !== undefined };
    }
    return out;
  }
  // A subresource without its own kind but with a `<Kind><Sub>Options` definition streams text (pods/log).
  const optionsName = `${parent.entry.kind}${s.name.charAt(0).toUpperCase()}${s.name.slice(1)}Options`;
  const options = set.tryDefinition({ fileId: parent.file.id, name: optionsName });
  if (options) out.stream = { parameters: queryParameters(options) };
  return out;
}

function queryParameters(options: SchemaNode): QueryParameter[] {
  return (
    Object.entries(options.properties ?? {})
      // kube-apiserver documents only scalar options as query parameters (not log's sinceTime).
      .filter(([name, node]) => name !== "apiVersion" && name !== "kind" && node.$ref === undefined)
      .map(([name, node]) => {
        const type = node.type === "array" ? node.items?.type : node.type;
        return { name, type: type === "integer" || type === "boolean" ? type : "string" };
      })
  );
}
