// The list and watch query parameters, parsed and checked as kube-apiserver's handlers do (defaults, then
// ValidateListOptions), and the label and field selectors turned into one predicate.
import * as fe from "../errors/field-error.js";
import { goQuote } from "../errors/go-format.js";
import { badRequest, invalid } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { storedAsServed } from "../registry/kinds.js";
import type { ServedKind } from "../registry/served-kind.js";
import { queryBool } from "../routing/request-info.js";
import { parseFieldSelector } from "../selection/field-selector.js";
import { parseLabelSelector } from "../selection/parse-label-selector.js";
import { fieldSetOf, labelOf, refusedFieldLabel } from "../selection/selectable-field-set.js";
import { labelsOf } from "./object-access.js";
import { convertToSync } from "./versioned.js";

export interface ListQuery {
  resourceVersion?: string;
  resourceVersionMatch?: "NotOlderThan" | "Exact";
  limit?: number;
  continue?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

export interface WatchQuery {
  resourceVersion?: string;
  labelSelector?: string;
  fieldSelector?: string;
  allowWatchBookmarks: boolean;
  sendInitialEvents?: boolean;
  /** As sent, any int64: kube reads 0 as unset and a negative value (or one whose nanoseconds wrap) as already over. */
  timeoutSeconds?: bigint;
}

const listOptionsKind = { group: "meta.k8s.io", name: "ListOptions" };

function optional(query: URLSearchParams, key: string): string | undefined {
  const value = query.get(key);
  return value === null || value === "" ? undefined : value;
}

/** An integer query parameter; kube's conversion answers a malformed one with 400. */
export function integerParam(query: URLSearchParams, key: string): number | undefined {
  const text = optional(query, key);
  if (text === undefined) return undefined;
  if (!/^-?\d+$/.test(text)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`);
  return Number(text);
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/**
 * An int64 query parameter read as Go's strconv.ParseInt reads it: an optional sign and digits, nothing
 * else, not even an empty value. kube's parameter conversion answers a bad one with 400 before it
 * validates anything else.
 */
function int64Param(query: URLSearchParams, key: string): bigint | undefined {
  const text = query.get(key);
  if (text === null) return undefined;
  if (!/^[+-]?\d+$/.test(text)) throw badRequest(`strconv.ParseInt: parsing ${goQuote(text)}: invalid syntax`);
  const value = BigInt(text);
  if (value < int64Min || value > int64Max) {
    throw badRequest(`strconv.ParseInt: parsing ${goQuote(text)}: value out of range`);
  }
  return value;
}

export function parseListQuery(query: URLSearchParams): ListQuery {
  // A list ignores timeoutSeconds but kube decodes it all the same.
  int64Param(query, "timeoutSeconds");
  const resourceVersion = optional(query, "resourceVersion");
  const match = optional(query, "resourceVersionMatch");
  const cont = optional(query, "continue");
  const errs: fe.FieldError[] = [];
  if (match !== undefined) {
    if (resourceVersion === undefined) {
      errs.push(
        fe.forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden unless resourceVersion is provided"),
      );
    }
    if (cont !== undefined) {
      errs.push(fe.forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden when continue is provided"));
    }
    if (match !== "Exact" && match !== "NotOlderThan") {
      errs.push(fe.notSupported("resourceVersionMatch", match, ["Exact", "NotOlderThan", ""]));
    }
    if (match === "Exact" && resourceVersion === "0") {
      errs.push(
        fe.forbidden("resourceVersionMatch", 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'),
      );
    }
  }
  if (query.has("sendInitialEvents")) {
    errs.push(fe.forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list"));
  }
  if (errs.length > 0) throw invalid(listOptionsKind, "", errs);
  const limit = integerParam(query, "limit");
  return {
    ...(resourceVersion === undefined ? {} : { resourceVersion }),
    ...(match === "Exact" || match === "NotOlderThan" ? { resourceVersionMatch: match } : {}),
    ...(limit !== undefined && limit > 0 ? { limit } : {}),
    ...(cont === undefined ? {} : { continue: cont }),
    ...selectorParams(query),
  };
}

/**
 * `watchList`: the WatchList feature gate. Off, a watch from "now" or "any" is not defaulted to a stream of
 * the initial state (it still starts with the objects, without the closing bookmark), and `sendInitialEvents`
 * is refused.
 */
export function parseWatchQuery(query: URLSearchParams, watchList = true): WatchQuery {
  const timeoutSeconds = int64Param(query, "timeoutSeconds");
  const resourceVersion = optional(query, "resourceVersion");
  let match = optional(query, "resourceVersionMatch");
  let sendInitialEvents = query.has("sendInitialEvents") ? queryBool(query, "sendInitialEvents") : undefined;
  // WatchList defaulting: a watch from "now" or "any" is a stream of the initial state, then changes.
  if (watchList && sendInitialEvents === undefined && match === undefined && (resourceVersion ?? "0") === "0") {
    sendInitialEvents = true;
    match = "NotOlderThan";
  }
  const errs: fe.FieldError[] = [];
  if (sendInitialEvents !== undefined && match !== "NotOlderThan") {
    errs.push(
      fe.forbidden("resourceVersionMatch", "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"),
    );
  }
  if (sendInitialEvents !== undefined && !watchList) {
    errs.push(
      fe.forbidden(
        "sendInitialEvents",
        "sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled",
      ),
    );
  }
  if (match !== undefined) {
    if (sendInitialEvents === undefined) {
      errs.push(
        fe.forbidden(
          "resourceVersionMatch",
          "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
        ),
      );
    }
    if (match !== "NotOlderThan") errs.push(fe.notSupported("resourceVersionMatch", match, ["NotOlderThan"]));
    if (optional(query, "continue") !== undefined) {
      errs.push(fe.forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden when continue is provided"));
    }
  }
  if (errs.length > 0) throw invalid(listOptionsKind, "", errs);
  return {
    ...(resourceVersion === undefined ? {} : { resourceVersion }),
    allowWatchBookmarks: queryBool(query, "allowWatchBookmarks"),
    ...(sendInitialEvents === undefined ? {} : { sendInitialEvents }),
    ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
    ...selectorParams(query),
  };
}

function selectorParams(query: URLSearchParams): { labelSelector?: string; fieldSelector?: string } {
  const labelSelector = optional(query, "labelSelector");
  const fieldSelector = optional(query, "fieldSelector");
  return {
    ...(labelSelector === undefined ? {} : { labelSelector }),
    ...(fieldSelector === undefined ? {} : { fieldSelector }),
  };
}

/** One predicate for both selectors, undefined when neither narrows anything; 400 for a bad selector. */
export function selectionFilter(
  kind: ServedKind,
  selectors: { labelSelector?: string; fieldSelector?: string },
): ((obj: KubeObject) => boolean) | undefined {
  const labels = parseLabelSelector(selectors.labelSelector ?? "");
  if (!labels.ok) throw badRequest(labels.error);
  const fields = parseFieldSelector(selectors.fieldSelector ?? "");
  if (!fields.ok) throw badRequest(fields.error);
  const refused = refusedFieldLabel(fields.selector, kind.resource);
  if (refused !== undefined) throw badRequest(refused);
  const labelSelector = labels.selector;
  const fieldSelector = fields.selector;
  if (labelSelector.isEmpty() && fieldSelector.isEmpty()) return undefined;
  // Only the fields the selector names are read, from the object in the kind's own version, where the
  // schema's paths point (name and namespace read the same in every version).
  const named = new Set(fieldSelector.requirements.map((r) => r.field));
  const read = kind.resource.selectableFields.filter((f) => named.has(labelOf(f)));
  const converted = read.length > 0 && !storedAsServed(kind);
  return (obj) =>
    labelSelector.matches(labelsOf(obj)) &&
    (fieldSelector.isEmpty() ||
      fieldSelector.matches(fieldSetOf(converted ? convertToSync(kind, obj, kind.version) : obj, read)));
}
