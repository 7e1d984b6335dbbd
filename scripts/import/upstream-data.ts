// Reads the Kubernetes release data in ../shared/upstream: OpenAPI v3 definitions, discovery documents
// and generated.proto messages. Only facts are kept (names, types, markers, numbers), never prose.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import protobuf from "protobufjs";
import { isScalarProtoType } from "../../generator/schema/proto-type.js";

export type OpenApiSchema = Record<string, unknown>;

export interface DiscoveryResource {
  resource: string;
  singularResource: string;
  scope: "Namespaced" | "Cluster";
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  responseKind: { group: string; version: string; kind: string };
  subresources?: {
    subresource: string;
    verbs: string[];
    responseKind?: { group: string; version: string; kind: string };
  }[];
}

export interface DiscoveryVersion {
  group: string;
  version: string;
  groupPriority: number;
  versionPriority: number;
  resources: DiscoveryResource[];
  /** resource plural → storageVersionHash from the legacy per-version discovery document */
  storageVersionHash: Map<string, string>;
}

export interface ProtoField {
  name: string;
  number: number;
  /** Fully qualified for messages (k8s.io.api.core.v1.PodSpec), scalar name otherwise. */
  type: string;
  repeated: boolean;
  mapKey?: string;
}

export interface ProtoMessage {
  package: string;
  name: string;
  fields: ProtoField[];
}

export interface UpstreamData {
  definitions: Map<string, OpenApiSchema>;
  discovery: DiscoveryVersion[];
  /** proto package → message name → message */
  proto: Map<string, Map<string, ProtoMessage>>;
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8"));
}

function walkFiles(dir: string, suffix: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walkFiles(path, suffix));
    else if (entry.name.endsWith(suffix)) out.push(path);
  }
  return out.sort();
}

function readDefinitions(root: string): Map<string, OpenApiSchema> {
  const definitions = new Map<string, OpenApiSchema>();
  for (const path of walkFiles(join(root, "api/openapi-spec/v3"), ".json")) {
    const doc = readJson(path) as { components?: { schemas?: Record<string, OpenApiSchema> } };
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      definitions.set(name, schema);
    }
  }
  return definitions;
}

function readDiscovery(root: string): DiscoveryVersion[] {
  const dir = join(root, "api/discovery");
  const aggregated = readJson(join(dir, "aggregated_v2.json")) as {
    items: { metadata: { name?: string }; versions: { version: string; resources: DiscoveryResource[] }[] }[];
  };
  // The core group is served from /api and not part of the /apis aggregated document.
  const coreLegacy = readJson(join(dir, "api__v1.json")) as {
    resources: {
      name: string;
      singularName: string;
      namespaced: boolean;
      kind: string;
      verbs: string[];
      shortNames?: string[];
      categories?: string[];
    }[];
  };
  const out: DiscoveryVersion[] = [];
  out.push({
    group: "",
    version: "v1",
    groupPriority: 0,
    versionPriority: 0,
    resources: legacyToAggregated(coreLegacy.resources),
    storageVersionHash: legacyHashes(join(dir, "api__v1.json")),
  });
  aggregated.items.forEach((item, gi) => {
    const group = item.metadata.name ?? "";
    item.versions.forEach((v, vi) => {
      out.push({
        group,
        version: v.version,
        groupPriority: gi + 1,
        versionPriority: vi,
        resources: v.resources,
        storageVersionHash: legacyHashes(join(dir, `apis__${group}__${v.version}.json`)),
      });
    });
  });
  return out;
}

function legacyHashes(path: string): Map<string, string> {
  const doc = readJson(path) as { resources: { name: string; storageVersionHash?: string }[] };
  const hashes = new Map<string, string>();
  for (const r of doc.resources) if (r.storageVersionHash) hashes.set(r.name, r.storageVersionHash);
  return hashes;
}

function legacyToAggregated(
  resources: {
    name: string;
    singularName: string;
    namespaced: boolean;
    kind: string;
    verbs: string[];
    shortNames?: string[];
    categories?: string[];
    group?: string;
    version?: string;
  }[],
): DiscoveryResource[] {
  const top = resources.filter((r) => !r.name.includes("/"));
  return top.map((r) => {
    const subs = resources.filter((s) => s.name.startsWith(`${r.name}/`));
    const res: DiscoveryResource = {
      resource: r.name,
      singularResource: r.singularName,
      scope: r.namespaced ? "Namespaced" : "Cluster",
      verbs: r.verbs,
      responseKind: { group: "", version: "", kind: r.kind },
    };
    if (r.shortNames) res.shortNames = r.shortNames;
    if (r.categories) res.categories = r.categories;
    if (subs.length > 0) {
      res.subresources = subs.map((s) => ({
        subresource: s.name.slice(r.name.length + 1),
        verbs: s.verbs,
        responseKind: { group: s.group ?? "", version: s.version ?? "", kind: s.kind },
      }));
    }
    return res;
  });
}

function readProto(root: string): Map<string, Map<string, ProtoMessage>> {
  const out = new Map<string, Map<string, ProtoMessage>>();
  const base = join(root, "staging/src");
  for (const path of walkFiles(base, "generated.proto")) {
    const parsed = protobuf.parse(readFileSync(path, "utf8"), { keepCase: true });
    const pkg = parsed.package;
    if (!pkg) throw new Error(`${relative(base, path)}: no package`);
    const ns = parsed.root.lookup(pkg) as protobuf.Namespace;
    const messages = new Map<string, ProtoMessage>();
    for (const nested of ns.nestedArray) {
      if (!(nested instanceof protobuf.Type)) continue;
      messages.set(nested.name, {
        package: pkg,
        name: nested.name,
        fields: nested.fieldsArray.map((f) => {
          const field: ProtoField = {
            name: f.name,
            number: f.id,
            type: qualify(f.type, pkg),
            repeated: f.repeated,
          };
          const keyType = f instanceof protobuf.MapField ? f.keyType : undefined;
          if (keyType) field.mapKey = keyType;
          return field;
        }),
      });
    }
    out.set(pkg, messages);
  }
  return out;
}

function qualify(type: string, pkg: string): string {
  if (isScalarProtoType(type)) return type;
  if (type.startsWith(".")) return type.slice(1);
  return `${pkg}.${type}`;
}

export function readUpstream(root: string): UpstreamData {
  return { definitions: readDefinitions(root), discovery: readDiscovery(root), proto: readProto(root) };
}
