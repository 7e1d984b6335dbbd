// OpenAPI v3 documents as kube-apiserver serves them: one per group/version (/openapi/v3/apis/apps/v1),
// one per named group (/openapi/v3/apis/apps), and the index (/openapi/v3) pointing at them by content hash.
import { createHash } from "node:crypto";
import { groupVersionPath, type ServedGroupVersion } from "../discovery/served.js";
import { canonicalJson } from "./canonical-json.js";
import { withKindInGroupVersions } from "./group-version-kinds.js";
import { patchMediaTypes, responseDescriptions, responseMediaTypes } from "./media-types.js";
import { type OpenApiInput, v3RefPrefix } from "./openapi-input.js";
import {
  groupRoute,
  type Parameter,
  type Response,
  type Route,
  resourceRoutes,
  resourcesRoute,
} from "./openapi-routes.js";
import { pathItems } from "./path-items.js";
import { reachableSchemas, type Schema } from "./schema-refs.js";

type Doc = Record<string, unknown>;

const bearer = { BearerToken: { type: "apiKey", name: "authorization", in: "header" } };

/** `apis/apps/v1`, `api/v1`: the document's path below /openapi/v3. */
export function openApiV3Path(gv: { group: string; version: string }): string {
  return groupVersionPath(gv).slice(1);
}

/** A built-in group/version: its discovery route and its resources. */
export function buildOpenApiV3GroupVersion(gv: ServedGroupVersion, input: OpenApiInput): Doc {
  return document([resourcesRoute(gv, input.meta), ...resourceRoutes(gv, input.meta)], input, gv);
}

/** A group/version served from definitions registered at run time: its resources only, as for custom resources. */
export function buildOpenApiV3Resources(gv: ServedGroupVersion, input: OpenApiInput): Doc {
  return document(resourceRoutes(gv, input.meta), input, gv);
}

export function buildOpenApiV3Group(group: string, input: OpenApiInput): Doc {
  return document([groupRoute(group, input.meta)], input);
}

/** `/openapi/v3`: each document's URL carries the hash of its content so clients can cache it. */
export function buildOpenApiV3Index(hashes: Record<string, string>): Doc {
  const paths: Record<string, Doc> = {};
  for (const path of Object.keys(hashes).sort()) {
    paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${hashes[path]}` };
  }
  return { paths };
}

/** Upper-case hex sha512 of the bytes served, kube-openapi's ETag and `hash` value. */
export function contentHash(bytes: string | Uint8Array): string {
  return createHash("sha512").update(bytes).digest("hex").toUpperCase();
}

/** The hash of a document as it is served: its canonical JSON. */
export function documentHash(document: Doc): string {
  return contentHash(canonicalJson(document));
}

function document(routes: Route[], input: OpenApiInput, gv?: ServedGroupVersion): Doc {
  const paths: Record<string, Doc> = {};
  for (const item of pathItems(routes)) {
    const entry: Doc = {};
    for (const { route, parameters } of item.operations) entry[route.method] = operation(route, parameters);
    if (item.parameters.length > 0) entry.parameters = item.parameters.map(parameter);
    paths[item.path] = entry;
  }
  const roots = routes.flatMap((r) => [
    ...(r.body ? [r.body.definition] : []),
    ...("definition" in r.response ? [r.response.definition] : []),
  ]);
  const available = gv
    ? withKindInGroupVersions(input.schemas, [input.meta.deleteOptions, input.meta.watchEvent], [gv])
    : input.schemas;
  const schemas: Record<string, Schema> = {};
  for (const name of reachableSchemas(roots, available, v3RefPrefix)) schemas[name] = available[name] ?? {};
  return {
    openapi: "3.0.0",
    info: { title: "Kubernetes", version: input.version },
    paths,
    components: { schemas, securitySchemes: bearer },
  };
}

function parameter(p: Parameter): Doc {
  return {
    name: p.name,
    in: p.in,
    ...(p.in === "path" ? { required: true } : {}),
    schema: { type: p.type, uniqueItems: true },
  };
}

const ref = (definition: string) => ({ $ref: `${v3RefPrefix}${definition}` });

function operation(route: Route, parameters: Parameter[]): Doc {
  const op: Doc = {
    tags: [route.tag],
    description: route.description,
    operationId: route.operationId,
  };
  if (parameters.length > 0) op.parameters = parameters.map(parameter);
  const body = route.body;
  if (body) {
    const types = body.patch ? [...patchMediaTypes].sort() : ["*/*"];
    op.requestBody = {
      content: Object.fromEntries(types.map((t) => [t, { schema: ref(body.definition) }])),
      ...(body.required ? { required: true } : {}),
    };
  }
  op.responses = responses(route.response);
  if (route.action) op["x-kubernetes-action"] = route.action;
  if (route.gvk) op["x-kubernetes-group-version-kind"] = route.gvk;
  return op;
}

function responses(r: Response): Doc {
  const schema = "definition" in r ? ref(r.definition) : { type: "string" };
  const types = [...responseMediaTypes(r.media)].sort();
  const out: Doc = {};
  for (const code of r.codes) {
    out[code] = {
      description: responseDescriptions[code],
      content: Object.fromEntries(types.map((t) => [t, { schema }])),
    };
  }
  out["401"] = { description: responseDescriptions["401"] };
  return out;
}
