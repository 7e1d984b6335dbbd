// The REST path templates kube-apiserver installs for one resource (k8s.io/apiserver/pkg/endpoints/installer.go):
// the generator writes them for built-in resources, the server builds them for custom resources.
import type { Scope, Verb } from "../registry/kind-record.js";
import type { HttpMethod, Route } from "./route.js";

type Methods = Partial<Record<HttpMethod, Verb>>;

export interface RoutedResource {
  plural: string;
  scope: Scope;
  verbs: readonly Verb[];
  subresources?: readonly { name: string; verbs: readonly Verb[] }[];
}

/** Subresources whose path goes on below them (`pods/{name}/proxy/{path}`). */
const openEndedSubresources = new Set(["proxy"]);

function only(declared: readonly Verb[], wanted: Methods): Methods {
  return Object.fromEntries(Object.entries(wanted).filter(([, verb]) => declared.includes(verb)));
}

export function resourceRoutes(gv: { group: string; version: string }, r: RoutedResource): Route[] {
  const { group, version } = gv;
  const base = group === "" ? `/api/${version}` : `/apis/${group}/${version}`;
  const common = { group, version, resource: r.plural, scope: r.scope };
  const watchable = r.verbs.includes("watch");
  const watch = watchable ? ({ watch: true } as const) : {};
  const owner = r.scope === "Namespaced" ? `${base}/namespaces/{namespace}/${r.plural}` : `${base}/${r.plural}`;
  const item = `${owner}/{name}`;
  const routes: Route[] = [
    {
      path: owner,
      ...common,
      methods: only(r.verbs, { GET: "list", POST: "create", DELETE: "deletecollection" }),
      ...watch,
    },
    {
      path: item,
      ...common,
      methods: only(r.verbs, { GET: "get", PUT: "update", PATCH: "patch", DELETE: "delete" }),
      ...watch,
    },
  ];
  if (r.scope === "Namespaced") {
    routes.push({ path: `${base}/${r.plural}`, ...common, methods: only(r.verbs, { GET: "list" }), ...watch });
  }
  for (const s of r.subresources ?? []) {
    const methods = only(s.verbs, { GET: "get", POST: "create", PUT: "update", PATCH: "patch", DELETE: "delete" });
    const sub = { ...common, subresource: s.name, methods };
    routes.push({ path: `${item}/${s.name}`, ...sub });
    if (openEndedSubresources.has(s.name)) routes.push({ path: `${item}/${s.name}/{path}`, ...sub });
  }
  if (watchable) {
    const legacy = (path: string): Route => ({ path, ...common, methods: { GET: "watch" } });
    const watchOwner = owner.replace(base, `${base}/watch`);
    routes.push(legacy(watchOwner), legacy(`${watchOwner}/{name}`));
    if (r.scope === "Namespaced") routes.push(legacy(`${base}/watch/${r.plural}`));
  }
  return routes.filter((route) => Object.keys(route.methods).length > 0 || route.watch);
}
