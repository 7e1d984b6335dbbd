// The OpenAPI v2 (swagger 2.0) document of /openapi/v2: every served group/version in one document, with
// definitions converted from the v3 component schemas the way kube-apiserver's v2 document has them.
import { type ServedGroupVersion, sortGroupVersions } from "../discovery/served.js";
import { withKindInGroupVersions } from "./group-version-kinds.js";
import { patchMediaTypes, responseDescriptions, responseMediaTypes } from "./media-types.js";
import { type OpenApiInput, v3RefPrefix } from "./openapi-input.js";
import { groupRoute, type Parameter, type Route, resourceRoutes, resourcesRoute } from "./openapi-routes.js";
import { pathItems } from "./path-items.js";
import { mapSchema, reachableSchemas, type Schema } from "./schema-refs.js";

type Doc = Record<string, unknown>;

const v2RefPrefix = "#/definitions/";

export function buildOpenApiV2(gvs: ServedGroupVersion[], input: OpenApiInput): Doc {
  const sorted = sortGroupVersions(gvs);
  const routes: Route[] = [];
  for (const group of new Set(sorted.map((gv) => gv.group))) {
    if (group !== "") routes.push(groupRoute(group, input.meta));
  }
  for (const gv of sorted) routes.push(resourcesRoute(gv, input.meta), ...resourceRoutes(gv, input.meta));
  const schemas = withKindInGroupVersions(input.schemas, [input.meta.deleteOptions, input.meta.watchEvent], gvs);
  return {
    swagger: "2.0",
    info: { title: "Kubernetes", version: input.version },
    ...openApiV2Parts(routes, schemas),
    security: [{ BearerToken: [] }],
    securityDefinitions: { BearerToken: { type: "apiKey", name: "authorization", in: "header" } },
  };
}

/** The paths and definitions a group/version registered at run time adds to /openapi/v2: its resources only. */
export function buildOpenApiV2Resources(gv: ServedGroupVersion, input: OpenApiInput): OpenApiV2Parts {
  return openApiV2Parts(resourceRoutes(gv, input.meta), input.schemas);
}

export interface OpenApiV2Parts {
  paths: Record<string, Doc>;
  definitions: Record<string, Schema>;
}

function openApiV2Parts(routes: Route[], schemas: Record<string, Schema>): OpenApiV2Parts {
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
  const definitions: Record<string, Schema> = {};
  for (const name of reachableSchemas(roots, schemas, v3RefPrefix)) {
    definitions[name] = toV2Schema(schemas[name] ?? {});
  }
  return { paths, definitions };
}

/**
 * v3 → v2 schema: `allOf: [{$ref}]` wrappers become a plain `$ref` keeping only extension siblings (v2 has no
 * siblings of `$ref`), `nullable` goes, and a `oneOf` of scalar types (IntOrString, Quantity) becomes a string.
 */
export function toV2Schema(schema: Schema): Schema {
  return mapSchema(schema, (s) => {
    const out: Schema = { ...s };
    const allOf = out.allOf;
    if (Array.isArray(allOf) && allOf.length === 1 && typeof allOf[0]?.$ref === "string") {
      const kept = Object.entries(out).filter(([k]) => k.startsWith("x-") || k === "description");
      return { $ref: toV2Ref(allOf[0].$ref), ...Object.fromEntries(kept) };
    }
    if (typeof out.$ref === "string") out.$ref = toV2Ref(out.$ref);
    delete out.nullable;
    if (out.type === undefined && Array.isArray(out.oneOf)) {
      delete out.oneOf;
      out.type = "string";
    }
    return out;
  });
}

function toV2Ref(ref: string): string {
  return ref.startsWith(v3RefPrefix) ? `${v2RefPrefix}${ref.slice(v3RefPrefix.length)}` : ref;
}

/** Patch media types for patches; the discovery routes (no action) list what they produce; anything else. */
function consumes(route: Route): string[] {
  if (route.body?.patch) return patchMediaTypes;
  return route.action === "" ? responseMediaTypes(route.response.media) : ["*/*"];
}

function parameter(p: Parameter): Doc {
  return { name: p.name, in: p.in, ...(p.in === "path" ? { required: true } : {}), type: p.type, uniqueItems: true };
}

function operation(route: Route, parameters: Parameter[]): Doc {
  const r = route.response;
  const params: Doc[] = [];
  if (route.body) {
    params.push({
      name: "body",
      in: "body",
      ...(route.body.required ? { required: true } : {}),
      schema: { $ref: `${v2RefPrefix}${route.body.definition}` },
    });
  }
  params.push(...parameters.map(parameter));
  const schema = "definition" in r ? { $ref: `${v2RefPrefix}${r.definition}` } : { type: "string" };
  const responses: Doc = {};
  for (const code of r.codes) responses[code] = { description: responseDescriptions[code], schema };
  responses["401"] = { description: responseDescriptions["401"] };
  return {
    tags: [route.tag],
    description: route.description,
    operationId: route.operationId,
    consumes: consumes(route),
    produces: responseMediaTypes(r.media),
    schemes: ["https"],
    ...(params.length > 0 ? { parameters: params } : {}),
    responses,
    ...(route.action ? { "x-kubernetes-action": route.action } : {}),
    ...(route.gvk ? { "x-kubernetes-group-version-kind": route.gvk } : {}),
  };
}
