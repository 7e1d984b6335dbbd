// The plain description of what a server serves, from which discovery and OpenAPI documents are built.
// The generator derives it from schemas/; CustomResourceDefinitions will derive it at runtime.

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** A query parameter of a connect or streaming subresource (exec's `command`, log's `follow`). */
export interface QueryParameter {
  name: string;
  type: "string" | "integer" | "boolean";
}

export interface ServedSubresource {
  name: string;
  verbs: string[];
  /** Kind served when it is not the parent's (scale → autoscaling/v1 Scale). */
  kind?: GroupVersionKind;
  /** OpenAPI definition name of the body, when it is not the parent's. */
  definition?: string;
  /** Served as a connection (exec, attach, proxy) whose options travel as query parameters. */
  connect?: { parameters: QueryParameter[]; withPath: boolean };
  /** Answered with a text stream (log) whose options travel as query parameters. */
  stream?: { parameters: QueryParameter[] };
}

export interface ServedResource {
  plural: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: ServedSubresource[];
  /** base64(sha256("<group>/<version>/<kind>" of the storage version)[0:8]); absent when nothing is stored. */
  storageVersionHash?: string;
  /** OpenAPI definition names of the kind and its list kind. */
  definition: string;
  /** Served from a CustomResourceDefinition: aggregated discovery spells out the group and version of its kinds. */
  custom?: true;
  listDefinition?: string;
}

export interface ServedGroupVersion {
  /** "" for the core group. */
  group: string;
  version: string;
  /** Discovery order: groups by groupPriority, versions by versionPriority (lower first, first is preferred). */
  groupPriority: number;
  versionPriority: number;
  enabledByDefault: boolean;
  resources: ServedResource[];
}

/** `/api/v1` or `/apis/<group>/<version>`. */
export function groupVersionPath(gv: { group: string; version: string }): string {
  return gv.group === "" ? `/api/${gv.version}` : `/apis/${gv.group}/${gv.version}`;
}

export function groupVersionString(gv: { group: string; version: string }): string {
  return gv.group === "" ? gv.version : `${gv.group}/${gv.version}`;
}

/** Group/versions in discovery order: groups by priority then name, versions by priority then name. */
export function sortGroupVersions(gvs: ServedGroupVersion[]): ServedGroupVersion[] {
  return [...gvs].sort(
    (a, b) =>
      a.groupPriority - b.groupPriority ||
      a.group.localeCompare(b.group) ||
      a.versionPriority - b.versionPriority ||
      a.version.localeCompare(b.version),
  );
}
