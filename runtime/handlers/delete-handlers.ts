// delete and deletecollection. DeleteOptions come from the body when there is one, else from the query:
// kube reads one or the other, never both. A body is decoded as kube's meta codec decodes it: a kind other
// than DeleteOptions is refused, and so is a field of the wrong JSON type, with Go's words.

import { decodeBody } from "../codecs/decode-body.js";
import { encodeObject, writeEncoded } from "../codecs/encode-response.js";
import { checkFields, kindFields } from "../codecs/unknown-fields.js";
import { badRequest } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { apiVersionOf, groupResource } from "../registry/kinds.js";
import type { DeleteOptions } from "../resources/delete-object.js";
import { integerParam, parseListQuery } from "../resources/list-options.js";
import type { Target } from "../resources/resource-api.js";
import { queryBool } from "../routing/request-info.js";
import type { RequestContext } from "../server/context.js";
import { admissionRequestOf } from "./admission-request.js";
import { headersFor, listItem, listKindOf, responseFormat, sendObject } from "./object-response.js";
import { parseDryRun } from "./write-options.js";

/** The scheme kube names when a body's kind is not one it can decode into DeleteOptions. */
const metaScheme = "pkg/apis/meta/internalversion/scheme/register.go:27";
const deleteOptionsFields = kindFields("meta.k8s.io", "v1", "DeleteOptions");

/** The body's DeleteOptions, checked as kube decodes them; undefined when the request has no body. */
function bodyOptions(ctx: RequestContext): Record<string, unknown> | undefined {
  const body = ctx.body;
  if (body === undefined || body.length === 0) return undefined;
  const { value, gvk } = decodeBody(ctx.req.headers["content-type"], body);
  if (gvk.kind !== "" && gvk.kind !== "DeleteOptions") {
    // A body without an apiVersion is read as meta.k8s.io/v1, the version kube decodes DeleteOptions into.
    const version =
      gvk.version === "" ? "meta.k8s.io/v1" : gvk.group === "" ? gvk.version : `${gvk.group}/${gvk.version}`;
    throw badRequest(`no kind "${gvk.kind}" is registered for version "${version}" in scheme "${metaScheme}"`);
  }
  if (deleteOptionsFields !== undefined) {
    const { fatal } = checkFields(value, deleteOptionsFields);
    if (fatal !== undefined) throw badRequest(fatal);
  }
  return value;
}

/** A Go pointer field: absent and null are both unset. */
function present<T>(value: T | null | undefined): value is T {
  return value !== undefined && value !== null;
}

function fromBody(body: Record<string, unknown>, options: DeleteOptions): DeleteOptions {
  // A null in a list of strings decodes as the empty string.
  const dryRun = Array.isArray(body.dryRun) ? body.dryRun.map((v) => (v === null ? "" : String(v))) : [];
  options.dryRun = parseDryRun(dryRun, "DeleteOptions");
  if (present(body.gracePeriodSeconds)) options.gracePeriodSeconds = body.gracePeriodSeconds as number;
  if (present(body.propagationPolicy)) options.propagationPolicy = body.propagationPolicy as string;
  if (present(body.orphanDependents)) options.orphanDependents = body.orphanDependents as boolean;
  const pre = body.preconditions;
  if (typeof pre === "object" && pre !== null) {
    const { uid, resourceVersion } = pre as Record<string, unknown>;
    options.preconditions = {
      ...(typeof uid === "string" ? { uid } : {}),
      ...(typeof resourceVersion === "string" ? { resourceVersion } : {}),
    };
  }
  return options;
}

function fromQuery(query: URLSearchParams, options: DeleteOptions): DeleteOptions {
  options.dryRun = parseDryRun(query.getAll("dryRun"), "DeleteOptions");
  const grace = integerParam(query, "gracePeriodSeconds");
  if (grace !== undefined) options.gracePeriodSeconds = grace;
  const policy = query.get("propagationPolicy");
  if (policy !== null && policy !== "") options.propagationPolicy = policy;
  if (query.has("orphanDependents")) options.orphanDependents = queryBool(query, "orphanDependents");
  return options;
}

/** The DeleteOptions fields admission reports, as the client set them. */
function sentOptions(options: DeleteOptions): Record<string, unknown> {
  const { request: _request, dryRun, ...fields } = options;
  return dryRun === true ? { ...fields, dryRun: ["All"] } : fields;
}

export function parseDeleteOptions(ctx: RequestContext): DeleteOptions {
  const body = bodyOptions(ctx);
  const options: DeleteOptions = { dryRun: false };
  const parsed = body === undefined ? fromQuery(ctx.url.searchParams, options) : fromBody(body, options);
  parsed.request = admissionRequestOf(ctx, sentOptions(parsed));
  return parsed;
}

export async function deleteResource(ctx: RequestContext, target: Target): Promise<void> {
  const format = responseFormat(ctx, { list: false, watch: false, kind: target.kind });
  const options = parseDeleteOptions(ctx);
  const { object, deleted } = await ctx.server.resources.delete(target, options);
  if (!deleted || target.kind.strategy?.returnDeletedObject === true) {
    const accepted = !deleted && options.orphanDependents === false;
    sendObject(ctx, format, accepted ? 202 : 200, target.kind, object);
    return;
  }
  const meta = object.metadata as Record<string, unknown>;
  const { group, name: resource } = groupResource(target.kind);
  const status: KubeObject = {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Success",
    details: { name: meta.name, ...(group === "" ? {} : { group }), kind: resource, uid: meta.uid },
  };
  sendObject(ctx, format, 200, target.kind, status);
}

export async function deleteCollection(ctx: RequestContext, target: Target): Promise<void> {
  const format = responseFormat(ctx, { list: true, watch: false, kind: target.kind });
  const query = parseListQuery(ctx.url.searchParams);
  const options = parseDeleteOptions(ctx);
  const items = await ctx.server.resources.deleteCollection(target, query, options);
  const list = {
    kind: listKindOf(target.kind),
    apiVersion: apiVersionOf(target.kind),
    metadata: {},
    items: items.map((item) => listItem(target.kind, item)),
  };
  ctx.audit?.responseObject(() => list);
  writeEncoded(
    ctx.req,
    ctx.res,
    200,
    encodeObject(format, list),
    headersFor(ctx.warnings),
    ctx.server.featureGates.enabled("APIResponseCompression"),
  );
}
