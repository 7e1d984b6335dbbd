// Typed clients: generated/client/<group or core>/<version>.ts, one class per group/version whose members are
// ResourceClients typed by the kinds of generated/<fileId>/types.ts, and generated/client/index.ts gathering
// them in a Clientset. `kapi sdk` (runtime/cli/sdk-command.ts) writes the same modules for CRD manifests.
import { posix } from "node:path";
import { groupDir, type SchemaSet } from "../schema/schema-set.js";
import { type Emitter, type GeneratedFile, generatedHeader } from "./emitter.js";
import { camelCase, fileAlias, relativeImport } from "./naming.js";
import { tsLiteral } from "./ts-literal.js";
import { typesPath } from "./types.js";

export interface ClientKind {
  kind: string;
  /** Absent for kinds that are never listed (TokenReview). */
  listKind?: string;
  plural: string;
  namespaced: boolean;
}

export interface ClientGroupVersion {
  group: string;
  version: string;
  /** Where the kinds come from, for the generated header. */
  sources: string[];
  /** Id of the types module: generated/<typesFileId>/types.ts, relative to the same root as the clients. */
  typesFileId: string;
  kinds: ClientKind[];
}

/** Import specifiers of the client runtime, relative to the output root ("../sdk/…") or a package. */
export interface ClientRuntimeImports {
  /** Module exporting ApiClient. */
  apiClient: string;
  /** Module exporting ResourceClient. */
  resourceClient: string;
  /** Module exporting the shapes clients share (KubeListLike, options, watch events). */
  resourceTypes: string;
}

const clientRoot = "client";

export function clientModulePath(gv: { group: string; version: string }): string {
  return `${clientRoot}/${groupDir(gv.group)}/${gv.version}.ts`;
}

/** "data-source" → "DataSource", "v1alpha1" → "V1alpha1". */
export function pascalCase(text: string): string {
  const name = camelCase(text).replace(/_$/, "");
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * Member name of a resource, as client-go names its getters: the plural with the kind's word boundaries
 * (statefulsets of StatefulSet → statefulSets, networkpolicies of NetworkPolicy → networkPolicies,
 * ipaddresses of IPAddress → ipAddresses).
 */
export function resourceMemberName(kind: string, plural: string): string {
  let shared = 0;
  while (shared < kind.length && shared < plural.length && kind[shared]?.toLowerCase() === plural[shared]) shared++;
  const words = kind.slice(0, shared) + plural.slice(shared);
  // A leading acronym is lowered as a whole: "IPAddresses" → "ipAddresses", "CSIDrivers" → "csiDrivers".
  const acronym = /^[A-Z]+(?=[A-Z][a-z]|$)/.exec(words)?.[0] ?? words.charAt(0);
  return camelCase(acronym.toLowerCase() + words.slice(acronym.length));
}

/**
 * The name each group goes by in class and member names: its first DNS label ("rbac" for
 * rbac.authorization.k8s.io, "core" for the core group), or the whole group where two groups of the set share
 * that label.
 */
export function groupNames(groups: Iterable<string>): Map<string, string> {
  const unique = [...new Set(groups)];
  const short = (group: string) => (group === "" ? "core" : (group.split(".")[0] ?? group));
  const counts = new Map<string, number>();
  for (const group of unique) counts.set(short(group), (counts.get(short(group)) ?? 0) + 1);
  return new Map(unique.map((group) => [group, counts.get(short(group)) === 1 ? short(group) : group]));
}

/** "AppsV1Client" for apps/v1 when the group goes by "apps". */
export function clientClassName(groupName: string, version: string): string {
  return `${pascalCase(groupName)}${pascalCase(version)}Client`;
}

/** The Clientset member of a group/version: "appsV1". */
function clientsetMemberName(groupName: string, version: string): string {
  return camelCase(`${groupName}-${version}`);
}

/**
 * A module as imported from generated file `from`: `module` is a path from the output root ("../sdk/…",
 * ending in .ts) or a package name.
 */
export function moduleSpecifier(from: string, module: string): string {
  if (!module.startsWith(".")) return module;
  // Resolved below a virtual root deep enough for the module's leading "..", so the process's cwd plays no part.
  const depth = module.split("/").filter((segment) => segment === "..").length;
  const root = `/${Array.from({ length: depth + 1 }, (_, i) => `r${i}`).join("/")}`;
  const path = posix.relative(posix.dirname(posix.join(root, from)), posix.join(root, module));
  const specifier = path.replace(/\.ts$/, ".js");
  return specifier.startsWith(".") ? specifier : `./${specifier}`;
}

interface NamedImport {
  name: string;
  module: string;
  typeOnly: boolean;
}

/** Import declarations of generated file `from`, one per module. */
function importLines(from: string, named: NamedImport[]): string {
  const byModule = new Map<string, NamedImport[]>();
  for (const n of named) byModule.set(n.module, [...(byModule.get(n.module) ?? []), n]);
  let out = "";
  for (const [module, names] of byModule) {
    const sorted = [...names].sort((a, b) => a.name.localeCompare(b.name));
    const allTypes = sorted.every((n) => n.typeOnly);
    const list = sorted.map((n) => (n.typeOnly && !allTypes ? `type ${n.name}` : n.name)).join(", ");
    out += `import ${allTypes ? "type " : ""}{ ${list} } from "${moduleSpecifier(from, module)}";\n`;
  }
  return out;
}

/** The module of one group/version's client class. */
export function clientModule(gv: ClientGroupVersion, groupName: string, imports: ClientRuntimeImports): GeneratedFile {
  const path = clientModulePath(gv);
  const alias = fileAlias(gv.typesFileId);
  const className = clientClassName(groupName, gv.version);
  const kinds = [...gv.kinds].sort((a, b) => a.plural.localeCompare(b.plural));
  const typeOf = (name: string) => `${alias}.${name}`;
  const fields = kinds.map((k) => {
    const list = k.listKind === undefined ? `KubeListLike<${typeOf(k.kind)}>` : typeOf(k.listKind);
    const type = `ResourceClient<${typeOf(k.kind)}, ${list}, ${k.namespaced}>`;
    return `  readonly ${resourceMemberName(k.kind, k.plural)}: ${type};\n`;
  });
  const assignments = kinds.map((k) => {
    const descriptor = {
      group: gv.group,
      version: gv.version,
      resource: k.plural,
      kind: k.kind,
      // kube's default list kind name, for the descriptor of a kind that is never listed.
      listKind: k.listKind ?? `${k.kind}List`,
      namespaced: k.namespaced,
    };
    return `    this.${resourceMemberName(k.kind, k.plural)} = new ResourceClient(api, ${tsLiteral(descriptor, "    ")});\n`;
  });
  const named: NamedImport[] = [
    { name: "ApiClient", module: imports.apiClient, typeOnly: true },
    { name: "ResourceClient", module: imports.resourceClient, typeOnly: false },
  ];
  if (kinds.some((k) => k.listKind === undefined)) {
    named.push({ name: "KubeListLike", module: imports.resourceTypes, typeOnly: true });
  }
  const content =
    generatedHeader(gv.sources) +
    importLines(path, named) +
    `import type * as ${alias} from "${relativeImport(path, typesPath(gv.typesFileId))}";\n\n` +
    `/** The resources of ${groupDir(gv.group)}/${gv.version}. */\n` +
    `export class ${className} {\n${fields.join("")}\n` +
    `  constructor(readonly api: ApiClient) {\n${assignments.join("")}  }\n}\n`;
  return { path, content };
}

/** generated/client/index.ts: the Clientset of every group/version and createClient. */
export function clientIndexModule(
  gvs: ClientGroupVersion[],
  names: Map<string, string>,
  imports: ClientRuntimeImports,
): GeneratedFile {
  const path = `${clientRoot}/index.ts`;
  const sorted = [...gvs].sort((a, b) => clientModulePath(a).localeCompare(clientModulePath(b)));
  const entries = sorted.map((gv) => {
    const name = names.get(gv.group) ?? gv.group;
    return {
      className: clientClassName(name, gv.version),
      member: clientsetMemberName(name, gv.version),
      module: relativeImport(path, clientModulePath(gv)),
    };
  });
  const sources = [...new Set(gvs.flatMap((gv) => gv.sources))].sort();
  const content =
    generatedHeader(sources) +
    importLines(path, [{ name: "ApiClient", module: imports.apiClient, typeOnly: true }]) +
    entries.map((e) => `import { ${e.className} } from "${e.module}";\n`).join("") +
    `\nexport {\n${entries.map((e) => `  ${e.className},\n`).join("")}};\n` +
    "\n/** A typed client of every group/version, as client-go's Clientset. */\n" +
    `export class Clientset {\n${entries.map((e) => `  readonly ${e.member}: ${e.className};\n`).join("")}\n` +
    `  constructor(readonly api: ApiClient) {\n` +
    entries.map((e) => `    this.${e.member} = new ${e.className}(api);\n`).join("") +
    "  }\n}\n\n" +
    "export function createClient(api: ApiClient): Clientset {\n  return new Clientset(api);\n}\n";
  return { path, content };
}

/** Client modules and their index for a list of group/versions. */
export function clientFiles(gvs: ClientGroupVersion[], imports: ClientRuntimeImports): GeneratedFile[] {
  const names = groupNames(gvs.map((gv) => gv.group));
  const modules = gvs.map((gv) => clientModule(gv, names.get(gv.group) ?? gv.group, imports));
  return [...modules, clientIndexModule(gvs, names, imports)];
}

function clientGroupVersions(set: SchemaSet): ClientGroupVersion[] {
  const out: ClientGroupVersion[] = [];
  for (const file of set.files) {
    const { group, version } = file.file;
    const served = set.servedKinds().filter((k) => k.file === file);
    if (group === undefined || version === undefined || served.length === 0) continue;
    const kinds = served.map(({ entry }) => ({
      kind: entry.kind,
      ...(entry.listKind === undefined ? {} : { listKind: entry.listKind }),
      plural: entry.resource?.plural ?? "",
      namespaced: entry.resource?.scope === "Namespaced",
    }));
    out.push({ group, version, sources: [file.path], typesFileId: file.id, kinds });
  }
  return out;
}

const runtimeImports: ClientRuntimeImports = {
  apiClient: "../sdk/api-client.ts",
  resourceClient: "../sdk/resource-client.ts",
  resourceTypes: "../sdk/resource-types.ts",
};

/**
 * `client/kinds.ts`: the types of every schema file as one namespace each, named as the Clientset's members
 * (coreV1, rbacV1; metaV1 for meta/v1, metaIntstr for meta/intstr), for the SDK package to export.
 */
export function kindsModule(set: SchemaSet): GeneratedFile {
  const path = `${clientRoot}/kinds.ts`;
  const ids = set.files.map((f) => f.id).sort();
  const dirOf = (id: string) => id.split("/")[0] ?? id;
  const names = groupNames(ids.map(dirOf));
  const lines = ids.map((id) => {
    const name = camelCase(`${names.get(dirOf(id))}-${id.split("/")[1]}`);
    return `export type * as ${name} from "${relativeImport(path, `${id}/types.ts`)}";\n`;
  });
  return { path, content: generatedHeader(set.files.map((f) => f.path).sort()) + lines.join("") };
}

export const clientEmitter: Emitter = {
  name: "client",
  emit: (set) => ({ files: [...clientFiles(clientGroupVersions(set), runtimeImports), kindsModule(set)] }),
};
