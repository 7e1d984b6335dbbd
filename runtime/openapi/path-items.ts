// Routes grouped into path items: parameters shared by every operation of a path move to the path item,
// as kube-apiserver's documents have them.
import type { Parameter, Route } from "./openapi-routes.js";

export interface PathItem {
  path: string;
  parameters: Parameter[];
  operations: { route: Route; parameters: Parameter[] }[];
}

const key = (p: Parameter) => `${p.in}:${p.name}`;
const byName = (a: Parameter, b: Parameter) => a.name.localeCompare(b.name) || a.in.localeCompare(b.in);

export function pathItems(routes: Route[]): PathItem[] {
  const byPath = new Map<string, Route[]>();
  for (const r of routes) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
  return [...byPath.keys()].sort().map((path) => {
    const list = (byPath.get(path) ?? []).sort((a, b) => a.method.localeCompare(b.method));
    const first = list[0]?.parameters ?? [];
    const shared = new Set(first.map(key).filter((k) => list.every((r) => r.parameters.some((p) => key(p) === k))));
    return {
      path,
      parameters: first.filter((p) => shared.has(key(p))).sort(byName),
      operations: list.map((route) => ({
        route,
        parameters: route.parameters.filter((p) => !shared.has(key(p))).sort(byName),
      })),
    };
  });
}
