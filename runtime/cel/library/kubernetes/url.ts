// Kubernetes' URL library (k8s.io/apiserver/pkg/cel/library/urls.go, "kubernetes.urls", from 1.24): the
// `kubernetes.URL` type, `url(string)` and `isURL(string)` (Go's url.ParseRequestURI: an absolute URI or
// an absolute path) and the getters. `url()` validates with ParseRequestURI and then keeps Go's url.Parse
// result, so a `#fragment` does not leak into the path or query.

import { BoolType, listType, mapType, opaqueType, StringType } from "../../common/cel-types.js";
import type { CelLibrary, FunctionDecl, OverloadImpl } from "../../common/decls.js";
import { ArrayList, CelError, CelOpaque, type CelValue, HashMap } from "../../common/values.js";
import { parsesStringArgument, sizeOf, traversalEstimate } from "../kubernetes-cost.js";
import { declareFunction, globalOverload, memberOverload } from "../standard/declare.js";
import { noSuchOverload } from "../standard/overload-errors.js";
import {
  escapedPath,
  type GoURL,
  host,
  hostname,
  parseRequestURI,
  parseURL,
  port,
  query,
  urlString,
} from "./go-url.js";

export const URLType = opaqueType("kubernetes.URL");

/** A parsed URL value; two URLs are equal when they print the same. */
export class URLValue extends CelOpaque {
  readonly celType = URLType;
  constructor(readonly url: GoURL) {
    super();
  }
  equals(other: CelValue): boolean {
    return other instanceof URLValue && urlString(this.url) === urlString(other.url);
  }
  override toString(): string {
    return urlString(this.url);
  }
}

function conversionError(error: string): CelError {
  return new CelError(`URL parse error during conversion from string: ${error}`);
}

/** `url(string)`: the URL, or Go's parse error. */
export function stringToURL(s: CelValue): CelValue {
  if (typeof s !== "string") return noSuchOverload();
  const checked = parseRequestURI(s);
  if (!checked.ok) return conversionError(checked.error);
  const parsed = parseURL(s);
  return parsed.ok ? new URLValue(parsed.url) : conversionError(parsed.error);
}

function getter(read: (url: GoURL) => CelValue): OverloadImpl {
  return ([u]) => (u instanceof URLValue ? read(u.url) : noSuchOverload());
}

function queryMap(url: GoURL): CelValue {
  const entries: [CelValue, CelValue][] = [];
  for (const [key, values] of query(url)) {
    const list = new ArrayList(values);
    list.elemType = StringType;
    entries.push([key, list]);
  }
  return new HashMap(entries);
}

function urlGetter(name: string, id: string, read: (url: GoURL) => CelValue): FunctionDecl {
  return declareFunction(name, memberOverload(id, [URLType], StringType, getter(read)));
}

const functions: FunctionDecl[] = [
  declareFunction(
    "url",
    globalOverload("string_to_url", [StringType], URLType, ([s]) => stringToURL(s as CelValue), {
      ...parsesStringArgument(),
      estimate: ([s]) => traversalEstimate(s),
      resultSize: ([s]) => sizeOf(s),
    }),
  ),
  urlGetter("getScheme", "url_get_scheme", (u) => u.scheme),
  urlGetter("getHost", "url_get_host", host),
  urlGetter("getHostname", "url_get_hostname", hostname),
  urlGetter("getPort", "url_get_port", port),
  urlGetter("getEscapedPath", "url_get_escaped_path", escapedPath),
  declareFunction(
    "getQuery",
    memberOverload("url_get_query", [URLType], mapType(StringType, listType(StringType)), getter(queryMap)),
  ),
  declareFunction(
    "isURL",
    globalOverload("is_url_string", [StringType], BoolType, ([s]) =>
      typeof s === "string" ? parseRequestURI(s).ok : noSuchOverload(),
    ),
  ),
];

export const urlLibrary: CelLibrary = { name: "kubernetes.urls", functions, types: [URLType] };
