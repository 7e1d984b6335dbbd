// The REST operations of a served group/version, named and shaped as kube-apiserver documents them. Both
// OpenAPI documents (v2 and v3) are rendered from this list.
import {
  type GroupVersionKind,
  groupVersionPath,
  type QueryParameter,
  type ServedGroupVersion,
  type ServedResource,
  type ServedSubresource,
} from "../discovery/served.js";
import type { ResponseMedia } from "./media-types.js";

/** Definition names of the meta types every group/version's operations refer to. */
export interface MetaDefinitions {
  apiResourceList: string;
  apiGroup: string;
  deleteOptions: string;
  patch: string;
  status: string;
  watchEvent: string;
}

export interface Parameter {
  name: string;
  in: "path" | "query";
  type: QueryParameter["type"];
}

/** What an operation answers with: a definition in one of the object or list encodings, or text. */
export type Response =
  | { media: Exclude<ResponseMedia, "connect" | "text">; definition: string; codes: string[] }
  | { media: Extract<ResponseMedia, "connect" | "text">; codes: string[] };

export interface Route {
  path: string;
  method: "get" | "put" | "post" | "delete" | "patch" | "head" | "options";
  operationId: string;
  description: string;
  action: string;
  gvk?: GroupVersionKind;
  parameters: Parameter[];
  body?: { definition: string; required: boolean; patch: boolean };
  response: Response;
  tag: string;
}

const bool = "boolean" as const;
const int = "integer" as const;
const str = "string" as const;
const q = (name: string, type: Parameter["type"]): Parameter => ({ name, in: "query", type });

const listParameters = [
  q("allowWatchBookmarks", bool),
  q("continue", str),
  q("fieldSelector", str),
  q("labelSelector", str),
  q("limit", int),
  q("resourceVersion", str),
  q("resourceVersionMatch", str),
  q("sendInitialEvents", bool),
  q("shardSelector", str),
  q("timeoutSeconds", int),
  q("watch", bool),
];
const deleteParameters = [
  q("dryRun", str),
  q("gracePeriodSeconds", int),
  q("ignoreStoreReadErrorWithClusterBreakingPotential", bool),
  q("orphanDependents", bool),
  q("propagationPolicy", str),
];
const deleteCollectionParameters = [
  ...deleteParameters,
  ...listParameters.filter((p) => p.name !== "allowWatchBookmarks" && p.name !== "watch"),
];
const writeParameters = [q("dryRun", str), q("fieldManager", str), q("fieldValidation", str)];
const patchParameters = [...writeParameters, q("force", bool)];
const pretty = q("pretty", str);
const connectMethods = { get: "Get", post: "Post", put: "Put", patch: "Patch", delete: "Delete" } as const;
const proxyOnlyMethods = { head: "Head", options: "Options" } as const;

/** "rbac.authorization.k8s.io" → "RbacAuthorization", "" → "Core": the group as operation ids spell it. */
export function groupIdentifier(group: string): string {
  if (group === "") return "Core";
  return group
    .replace(/\.k8s\.io$/, "")
    .split(/[.-]/)
    .map(capitalize)
    .join("");
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The tag of a group/version's operations: "apps_v1", "rbacAuthorization_v1", "core_v1". */
export function groupVersionTag(gv: { group: string; version: string }): string {
  const id = groupIdentifier(gv.group);
  return `${id.charAt(0).toLowerCase()}${id.slice(1)}_${gv.version}`;
}

/** The discovery route of a group/version (`GET /apis/apps/v1/`). */
export function resourcesRoute(gv: ServedGroupVersion, meta: MetaDefinitions): Route {
  return {
    path: `${groupVersionPath(gv)}/`,
    method: "get",
    operationId: `get${groupIdentifier(gv.group)}${capitalize(gv.version)}APIResources`,
    description: "get available resources",
    action: "",
    parameters: [],
    response: { media: "object", definition: meta.apiResourceList, codes: ["200"] },
    tag: groupVersionTag(gv),
  };
}

/** The discovery route of a named group (`GET /apis/apps/`). */
export function groupRoute(group: string, meta: MetaDefinitions): Route {
  const tag = groupIdentifier(group);
  return {
    path: `/apis/${group}/`,
    method: "get",
    operationId: `get${tag}APIGroup`,
    description: "get information of a group",
    action: "",
    parameters: [],
    response: { media: "group", definition: meta.apiGroup, codes: ["200"] },
    tag: `${tag.charAt(0).toLowerCase()}${tag.slice(1)}`,
  };
}

/** Every route of a group/version's resources, in a stable order. */
export function resourceRoutes(gv: ServedGroupVersion, meta: MetaDefinitions): Route[] {
  const routes: Route[] = [];
  for (const r of gv.resources) routes.push(...routesOf(gv, r, meta));
  return routes;
}

function routesOf(gv: ServedGroupVersion, r: ServedResource, meta: MetaDefinitions): Route[] {
  const base = groupVersionPath(gv);
  const prefix = `${groupIdentifier(gv.group)}${capitalize(gv.version)}`;
  const ns = r.namespaced ? "Namespaced" : "";
  const scope = r.namespaced ? "/namespaces/{namespace}" : "";
  const scopeParams: Parameter[] = r.namespaced ? [{ name: "namespace", in: "path", type: str }] : [];
  const nameParam: Parameter = { name: "name", in: "path", type: str };
  const collection = `${base}${scope}/${r.plural}`;
  const item = `${collection}/{name}`;
  const gvk = { group: gv.group, version: gv.version, kind: r.kind };
  const tag = groupVersionTag(gv);
  const has = (v: string) => r.verbs.includes(v);
  const routes: Route[] = [];
  const route = (x: Omit<Route, "tag" | "gvk">, kind: GroupVersionKind = gvk) => routes.push({ ...x, gvk: kind, tag });
  const object = (definition: string, codes: string[]): Response => ({ media: "object", definition, codes });
  const list = r.listDefinition;

  if (has("list") && list) {
    route({
      path: collection,
      method: "get",
      operationId: `list${prefix}${ns}${r.kind}`,
      description: `list or watch objects of kind ${r.kind}`,
      action: "list",
      parameters: [...scopeParams, pretty, ...listParameters],
      response: { media: "list", definition: list, codes: ["200"] },
    });
    if (r.namespaced) {
      route({
        path: `${base}/${r.plural}`,
        method: "get",
        operationId: `list${prefix}${r.kind}ForAllNamespaces`,
        description: `list or watch objects of kind ${r.kind}`,
        action: "list",
        parameters: [pretty, ...listParameters],
        response: { media: "list", definition: list, codes: ["200"] },
      });
    }
  }
  if (has("create")) {
    route({
      path: collection,
      method: "post",
      operationId: `create${prefix}${ns}${r.kind}`,
      description: `create a ${r.kind}`,
      action: "post",
      parameters: [...scopeParams, pretty, ...writeParameters],
      body: { definition: r.definition, required: true, patch: false },
      response: object(r.definition, ["200", "201", "202"]),
    });
  }
  if (has("deletecollection")) {
    route({
      path: collection,
      method: "delete",
      operationId: `delete${prefix}Collection${ns}${r.kind}`,
      description: `delete collection of ${r.kind}`,
      action: "deletecollection",
      parameters: [...scopeParams, pretty, ...deleteCollectionParameters],
      body: { definition: meta.deleteOptions, required: false, patch: false },
      response: object(meta.status, ["200"]),
    });
  }
  const itemParams = [nameParam, ...scopeParams, pretty];
  const id = `${prefix}${ns}${r.kind}`;
  if (has("get")) {
    route({
      path: item,
      method: "get",
      operationId: `read${id}`,
      description: `read the specified ${r.kind}`,
      action: "get",
      parameters: itemParams,
      response: object(r.definition, ["200"]),
    });
  }
  if (has("update")) {
    route({
      path: item,
      method: "put",
      operationId: `replace${id}`,
      description: `replace the specified ${r.kind}`,
      action: "put",
      parameters: [...itemParams, ...writeParameters],
      body: { definition: r.definition, required: true, patch: false },
      response: object(r.definition, ["200", "201"]),
    });
  }
  if (has("patch")) {
    route({
      path: item,
      method: "patch",
      operationId: `patch${id}`,
      description: `partially update the specified ${r.kind}`,
      action: "patch",
      parameters: [...itemParams, ...patchParameters],
      body: { definition: meta.patch, required: true, patch: true },
      response: object(r.definition, ["200", "201"]),
    });
  }
  if (has("delete")) {
    route({
      path: item,
      method: "delete",
      operationId: `delete${id}`,
      description: `delete a ${r.kind}`,
      action: "delete",
      parameters: [...itemParams, ...deleteParameters],
      body: { definition: meta.deleteOptions, required: false, patch: false },
      response: object(meta.status, ["200", "202"]),
    });
  }
  if (has("watch")) {
    const watch = (path: string, operationId: string, action: string, description: string, params: Parameter[]) =>
      route({
        path,
        method: "get",
        operationId,
        description,
        action,
        parameters: [...params, pretty, ...listParameters],
        response: { media: "list", definition: meta.watchEvent, codes: ["200"] },
      });
    const w = `${base}/watch`;
    const listNote = "deprecated: use the 'watch' parameter with a list operation instead.";
    const itemNote =
      "deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.";
    watch(
      `${w}${scope}/${r.plural}`,
      `watch${id}List`,
      "watchlist",
      `watch individual changes to a list of ${r.kind}. ${listNote}`,
      scopeParams,
    );
    watch(
      `${w}${scope}/${r.plural}/{name}`,
      `watch${id}`,
      "watch",
      `watch changes to an object of kind ${r.kind}. ${itemNote}`,
      [nameParam, ...scopeParams],
    );
    if (r.namespaced) {
      watch(
        `${w}/${r.plural}`,
        `watch${prefix}${r.kind}ListForAllNamespaces`,
        "watchlist",
        `watch individual changes to a list of ${r.kind}. ${listNote}`,
        [],
      );
    }
  }
  for (const s of r.subresources ?? []) {
    routes.push(
      ...subresourceRoutes(s, {
        item,
        prefix,
        ns,
        id,
        kind: r.kind,
        gvk,
        tag,
        itemParams,
        meta,
        definition: r.definition,
      }),
    );
  }
  return routes;
}

interface Parent {
  item: string;
  /** Operation id parts: "CoreV1", "Namespaced" or "", and both with the kind ("CoreV1NamespacedPod"). */
  prefix: string;
  ns: string;
  id: string;
  kind: string;
  gvk: GroupVersionKind;
  tag: string;
  itemParams: Parameter[];
  meta: MetaDefinitions;
  definition: string;
}

function subresourceRoutes(s: ServedSubresource, p: Parent): Route[] {
  const path = `${p.item}/${s.name}`;
  const sub = capitalize(s.name);
  const gvk = s.kind ?? p.gvk;
  const definition = s.definition ?? p.definition;
  const routes: Route[] = [];
  const route = (x: Omit<Route, "tag" | "gvk" | "path">) => routes.push({ ...x, path, gvk, tag: p.tag });
  const object = (codes: string[]): Response => ({ media: "object", definition, codes });
  const queries = (params: QueryParameter[]): Parameter[] => params.map((x) => q(x.name, x.type));

  if (s.connect) {
    const connect = s.connect;
    const pathParams = p.itemParams.filter((x) => x.in === "path");
    const methods: [Route["method"], string][] = [];
    for (const [verb, method] of [
      ["get", "get"],
      ["create", "post"],
      ["update", "put"],
      ["patch", "patch"],
      ["delete", "delete"],
    ] as const) {
      if (s.verbs.includes(verb)) methods.push([method, connectMethods[method]]);
    }
    if (connect.withPath) methods.push(["head", proxyOnlyMethods.head], ["options", proxyOnlyMethods.options]);
    const variants = connect.withPath ? ["", "WithPath"] : [""];
    for (const suffix of variants) {
      for (const [method, word] of methods) {
        const withPath = suffix !== "";
        routes.push({
          path: withPath ? `${path}/{path}` : path,
          method,
          operationId: `connect${p.prefix}${word}${p.ns}${p.kind}${sub}${suffix}`,
          description: `connect ${word.toUpperCase()} requests to ${s.name} of ${p.kind}`,
          action: "connect",
          gvk,
          parameters: [
            ...pathParams,
            ...(withPath ? [{ name: "path", in: "path" as const, type: str }] : []),
            ...queries(connect.parameters),
          ],
          response: { media: "connect", codes: ["200"] },
          tag: p.tag,
        });
      }
    }
    return routes;
  }
  if (s.stream) {
    route({
      method: "get",
      operationId: `read${p.id}${sub}`,
      description: `read ${s.name} of the specified ${p.kind}`,
      action: "get",
      parameters: [...p.itemParams, ...queries(s.stream.parameters)],
      response: { media: "text", codes: ["200"] },
    });
    return routes;
  }
  if (s.verbs.includes("get")) {
    route({
      method: "get",
      operationId: `read${p.id}${sub}`,
      description: `read ${s.name} of the specified ${p.kind}`,
      action: "get",
      parameters: p.itemParams,
      response: object(["200"]),
    });
  }
  if (s.verbs.includes("create")) {
    route({
      method: "post",
      operationId: `create${p.id}${sub}`,
      description: `create ${s.name} of a ${p.kind}`,
      action: "post",
      parameters: [...p.itemParams, ...writeParameters],
      body: { definition, required: true, patch: false },
      response: object(["200", "201", "202"]),
    });
  }
  if (s.verbs.includes("update")) {
    route({
      method: "put",
      operationId: `replace${p.id}${sub}`,
      description: `replace ${s.name} of the specified ${p.kind}`,
      action: "put",
      parameters: [...p.itemParams, ...writeParameters],
      body: { definition, required: true, patch: false },
      response: object(["200", "201"]),
    });
  }
  if (s.verbs.includes("patch")) {
    route({
      method: "patch",
      operationId: `patch${p.id}${sub}`,
      description: `partially update ${s.name} of the specified ${p.kind}`,
      action: "patch",
      parameters: [...p.itemParams, ...patchParameters],
      body: { definition: p.meta.patch, required: true, patch: true },
      response: object(["200", "201"]),
    });
  }
  return routes;
}
