// Finds the route of a request path among the generated templates: literal segments win over parameters, so
// `/api/v1/namespaces/{name}/status` and `/api/v1/namespaces/{namespace}/pods` never shadow each other.

import type { Verb } from "../registry/kind-record.js";
import type { HttpMethod, Route } from "./route.js";

export interface RouteParams {
  namespace?: string;
  name?: string;
  /** Rest of a proxy path, decoded, without its leading slash. */
  path?: string;
}

export interface RouteMatch {
  route: Route;
  params: RouteParams;
}

interface Node {
  literals: Map<string, Node>;
  /** `{namespace}` and `{name}` may both follow one prefix (`namespaces/{name}` vs `namespaces/{namespace}/pods`). */
  params: Map<keyof RouteParams, Node>;
  rest?: Route;
  route?: Route;
}

const paramSegment = /^\{(namespace|name|path)\}$/;

function newNode(): Node {
  return { literals: new Map(), params: new Map() };
}

function segments(path: string): string[] {
  return path.split("/").slice(1);
}

function child<K>(children: Map<K, Node>, key: K): Node {
  let next = children.get(key);
  if (!next) {
    next = newNode();
    children.set(key, next);
  }
  return next;
}

function insert(root: Node, route: Route): void {
  let node = root;
  const parts = segments(route.path);
  for (const [i, part] of parts.entries()) {
    const param = paramSegment.exec(part)?.[1] as keyof RouteParams | undefined;
    if (param === "path" && i === parts.length - 1) {
      node.rest = route;
      return;
    }
    node = param === undefined ? child(node.literals, part) : child(node.params, param);
  }
  if (node.route) throw new Error(`route ${route.path} is declared twice`);
  node.route = route;
}

function find(node: Node, parts: string[], i: number, params: RouteParams): RouteMatch | undefined {
  if (i === parts.length) return node.route ? { route: node.route, params } : undefined;
  const part = parts[i] ?? "";
  const literal = node.literals.get(part);
  const viaLiteral = literal && find(literal, parts, i + 1, params);
  if (viaLiteral) return viaLiteral;
  // Paths arrive decoded (server/request-target.ts): a segment is the parameter's value as it stands.
  const value = part === "" ? undefined : part;
  if (value !== undefined) {
    for (const [name, next] of node.params) {
      const viaParam = find(next, parts, i + 1, { ...params, [name]: value });
      if (viaParam) return viaParam;
    }
  }
  if (node.rest && part !== "") return { route: node.rest, params: { ...params, path: parts.slice(i).join("/") } };
  return undefined;
}

/** Indexes `routes` once; the returned function matches a URL path (no query string). */
export function createRouteMatcher(routes: readonly Route[]): (path: string) => RouteMatch | undefined {
  const root = newNode();
  for (const route of routes) insert(root, route);
  return (path) => (path.startsWith("/") ? find(root, segments(path), 0, {}) : undefined);
}

/** The verb of a request on a matched route, or undefined when the method is not allowed there. */
export function routeVerb(route: Route, method: HttpMethod, watch: boolean): Verb | undefined {
  if (method === "GET" && watch && route.watch) return "watch";
  return route.methods[method];
}
