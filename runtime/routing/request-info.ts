// What a request asks for, parsed from its path, method and query as kube-apiserver's RequestInfoFactory does;
// authorization, audit and the handlers all read this one value.

export interface RequestInfo {
  isResourceRequest: boolean;
  /** The URL path, for non-resource requests. */
  path: string;
  /** Lower-case HTTP method for non-resource requests; the API verb (get, list, watch, …) for resource ones. */
  verb: string;
  apiPrefix: string;
  group: string;
  version: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** The path segments from the resource on: resource/name/subresource/…. */
  parts: string[];
}

const apiPrefixes = new Set(["api", "apis"]);
const grouplessPrefixes = new Set(["api"]);
/** Path segments that make the verb (`/api/v1/watch/pods`): the legacy watch and proxy forms. */
const specialVerbs = new Set(["proxy", "watch"]);
/** Subresources of a namespace, which must not be read as a resource inside it. */
const namespaceSubresources = new Set(["status", "finalize"]);

const methodVerbs: Record<string, string> = {
  POST: "create",
  GET: "get",
  HEAD: "get",
  PUT: "update",
  PATCH: "patch",
  DELETE: "delete",
};

/** A boolean query parameter as apimachinery converts it: absent is false, `0` and `false` are false, else true. */
export function queryBool(query: URLSearchParams, key: string): boolean {
  const value = query.get(key);
  return value !== null && value !== "0" && value.toLowerCase() !== "false";
}

function isValidPathSegmentName(name: string): boolean {
  return name !== "." && name !== ".." && !name.includes("/") && !name.includes("%");
}

/** `metadata.name` when the field selector requires it to equal one value (a list narrowed to one object). */
function exactName(fieldSelector: string | null): string | undefined {
  if (fieldSelector === null) return undefined;
  for (const term of fieldSelector.split(",")) {
    const match = /^\s*metadata\.name\s*==?\s*(.*?)\s*$/.exec(term);
    if (match) return match[1];
  }
  return undefined;
}

function nonResource(path: string, method: string): RequestInfo {
  return {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: "",
    group: "",
    version: "",
    namespace: "",
    resource: "",
    subresource: "",
    name: "",
    parts: [],
  };
}

export function parseRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const fallback = nonResource(path, method);
  let parts = path.replace(/^\/+|\/+$/g, "").split("/");
  if (parts.length < 3 || !apiPrefixes.has(parts[0] ?? "")) return fallback;
  const apiPrefix = parts[0] ?? "";
  parts = parts.slice(1);
  let group = "";
  if (!grouplessPrefixes.has(apiPrefix)) {
    if (parts.length < 3) return fallback;
    group = parts[0] ?? "";
    parts = parts.slice(1);
  }
  const version = parts[0] ?? "";
  parts = parts.slice(1);

  let verb: string;
  if (specialVerbs.has(parts[0] ?? "")) {
    // `/api/v1/watch` names no resource; kube fails such a request, kapi answers it as an unknown path.
    if (parts.length < 2) return fallback;
    verb = parts[0] ?? "";
    parts = parts.slice(1);
  } else {
    verb = methodVerbs[method] ?? "";
  }

  let namespace = "";
  if (parts[0] === "namespaces" && parts.length > 1) {
    namespace = parts[1] ?? "";
    if (parts.length > 2 && !namespaceSubresources.has(parts[2] ?? "")) parts = parts.slice(2);
  }

  const resource = parts[0] ?? "";
  let name = parts[1] ?? "";
  const subresource = parts.length >= 3 && verb !== "proxy" ? (parts[2] ?? "") : "";

  if (name === "" && verb === "get") {
    verb = queryBool(query, "watch") ? "watch" : "list";
    const selected = exactName(query.get("fieldSelector"));
    if (selected !== undefined && selected !== "" && isValidPathSegmentName(selected)) name = selected;
  }
  if (name === "" && verb === "delete") verb = "deletecollection";

  return {
    isResourceRequest: true,
    path,
    verb,
    apiPrefix,
    group,
    version,
    namespace,
    resource,
    subresource,
    name,
    parts,
  };
}
