// generated/routes.ts: every REST path template of every served resource, with the verb each HTTP method means
// there, as kube-apiserver installs them (k8s.io/apiserver/pkg/endpoints/installer.go).
import type { ResourceMapping, Subresource, Verb } from "../schema/model.js";
import type { KindInfo, SchemaSet } from "../schema/schema-set.js";
import { type Emitter, generatedHeader } from "./emitter.js";
import { tsLiteral } from "./ts-literal.js";

export const routesPath = "routes.ts";

type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Methods = Partial<Record<HttpMethod, Verb>>;

interface RouteData {
  path: string;
  group: string;
  version: string;
  resource: string;
  subresource?: string;
  scope: string;
  methods: Methods;
  watch?: true;
}

/** Subresources whose path goes on below them (`pods/{name}/proxy/{path}`). */
const openEndedSubresources = new Set(["proxy"]);

function only(declared: readonly Verb[], wanted: Methods): Methods {
  return Object.fromEntries(Object.entries(wanted).filter(([, verb]) => declared.includes(verb)));
}

function collectionMethods(verbs: readonly Verb[]): Methods {
  return only(verbs, { GET: "list", POST: "create", DELETE: "deletecollection" });
}

function itemMethods(verbs: readonly Verb[]): Methods {
  return only(verbs, { GET: "get", PUT: "update", PATCH: "patch", DELETE: "delete" });
}

function subresourceMethods(s: Subresource): Methods {
  return only(s.verbs, { GET: "get", POST: "create", PUT: "update", PATCH: "patch", DELETE: "delete" });
}

function resourceRoutes(info: KindInfo, r: ResourceMapping): RouteData[] {
  const { group, version } = info.gvk;
  const base = group === "" ? `/api/${version}` : `/apis/${group}/${version}`;
  const common = { group, version, resource: r.plural, scope: r.scope };
  const watchable = r.verbs.includes("watch");
  const watch = watchable ? ({ watch: true } as const) : {};
  const owner = r.scope === "Namespaced" ? `${base}/namespaces/{namespace}/${r.plural}` : `${base}/${r.plural}`;
  const item = `${owner}/{name}`;
  const routes: RouteData[] = [
    { path: owner, ...common, methods: collectionMethods(r.verbs), ...watch },
    { path: item, ...common, methods: itemMethods(r.verbs), ...watch },
  ];
  if (r.scope === "Namespaced") {
    routes.push({ path: `${base}/${r.plural}`, ...common, methods: only(r.verbs, { GET: "list" }), ...watch });
  }
  for (const s of r.subresources ?? []) {
    const sub = { ...common, subresource: s.name, methods: subresourceMethods(s) };
    routes.push({ path: `${item}/${s.name}`, ...sub });
    if (openEndedSubresources.has(s.name)) routes.push({ path: `${item}/${s.name}/{path}`, ...sub });
  }
  if (watchable) {
    const legacy = (path: string): RouteData => ({ path, ...common, methods: { GET: "watch" } });
    const watchOwner = owner.replace(base, `${base}/watch`);
    routes.push(legacy(watchOwner), legacy(`${watchOwner}/{name}`));
    if (r.scope === "Namespaced") routes.push(legacy(`${base}/watch/${r.plural}`));
  }
  return routes.filter((route) => Object.keys(route.methods).length > 0 || route.watch);
}

export const routesEmitter: Emitter = {
  name: "routes",
  emit(set: SchemaSet) {
    const served = set.servedKinds();
    const routes = served
      .flatMap((info) => (info.entry.resource ? resourceRoutes(info, info.entry.resource) : []))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const sources = [...new Set(served.map((k) => k.file.path))];
    const content =
      generatedHeader(sources) +
      `import type { Route } from "../runtime/routing/route.js";\n\n` +
      `export const routes: readonly Route[] = ${tsLiteral(routes)};\n`;
    return { files: [{ path: routesPath, content }] };
  },
};
