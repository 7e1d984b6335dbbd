// Which representation a resource response takes, negotiated from Accept as kube-apiserver's
// NegotiateOutputMediaType does with a resource endpoint's restrictions: clauses by q (then specificity), the
// first serializer whose type matches and whose parameters are allowed wins; `as`/`g`/`v` ask for a meta.k8s.io
// Table or PartialObjectMetadata(List); other parameters (charset, …) are ignored. Errors are negotiated
// without the endpoint's restrictions (`errorFormat`), as kube's ErrorNegotiated does.
import { invalid } from "../errors/field-error.js";
import { formatFieldError } from "../errors/format-field-error.js";
import { badRequest, notAcceptable, StatusError } from "../errors/status-error.js";
import { parseMediaType } from "../http/accept.js";
import type { MetaVersion } from "./partial-object-metadata.js";
import { PROTOBUF_MEDIA_TYPE } from "./protobuf/envelope.js";
import type { IncludeObject } from "./table.js";

export type ResponseFormat =
  | { kind: "json"; pretty: boolean }
  | { kind: "yaml" }
  | { kind: "protobuf" }
  /** `yaml` is set when the Table was asked for as application/yaml (Tables have no protobuf form). */
  | { kind: "table"; version: MetaVersion; includeObject: IncludeObject; pretty: boolean; yaml?: boolean }
  /** `yaml` or `protobuf` is set when asked for in that media type. */
  | {
      kind: "partial-object-metadata";
      version: MetaVersion;
      pretty: boolean;
      yaml?: boolean;
      protobuf?: boolean;
    };

export interface ResponseTarget {
  list: boolean;
  watch: boolean;
  /** The served kind, for kube's wording of a PartialObjectMetadata/list mismatch. */
  kind?: { group: string; kind: string };
  /**
   * Whether the kind has a protobuf message, asked only when a clause picks protobuf; without it the kind has
   * one. A kind without one (custom resources) gets protobuf only as PartialObjectMetadata, as kube's
   * StandardSerializers restrict it.
   */
  protobuf?: () => boolean;
  /**
   * false when the kind's storage converts nothing to a Table (kube's REST storages of the review kinds
   * implement no TableConvertor): a Table is then not acceptable.
   */
  tables?: boolean;
}

interface Serializer {
  mediaType: string;
  type: string;
  subtype: string;
  /** Has a stream serializer (`;stream=watch`); YAML has none, so a YAML watch is refused. */
  streams: boolean;
  /** Can carry a Table: kube's tables have no protobuf message (AllowsMediaTypeTransform). */
  tables: boolean;
}

const PROTOBUF_SUBTYPE = PROTOBUF_MEDIA_TYPE.slice("application/".length);

/** The serializers of a built-in resource endpoint, in kube's order (its CodecFactory's). */
const SERIALIZERS: readonly Serializer[] = [
  { mediaType: "application/json", type: "application", subtype: "json", streams: true, tables: true },
  { mediaType: "application/yaml", type: "application", subtype: "yaml", streams: false, tables: true },
  { mediaType: PROTOBUF_MEDIA_TYPE, type: "application", subtype: PROTOBUF_SUBTYPE, streams: true, tables: false },
];

export const RESPONSE_MEDIA_TYPES: readonly string[] = SERIALIZERS.map((s) => s.mediaType);

const META_GROUP = "meta.k8s.io";

interface Clause {
  type: string;
  subtype: string;
  q: number;
  params: Record<string, string>;
}

/** goautoneg.ParseAccept: q=0 clauses are kept; sorted by q, then concrete types before wildcards. */
function parseAccept(header: string): Clause[] {
  const clauses: Clause[] = [];
  for (const part of header.split(",")) {
    const { type, subtype, params } = parseMediaType(part);
    const fullType = subtype === "" && type === "*" ? "*" : subtype;
    if (fullType === "") continue;
    const { q, ...rest } = params;
    const weight = q === undefined ? 1 : Number(q);
    clauses.push({ type, subtype: fullType, q: Number.isNaN(weight) ? 0 : weight, params: rest });
  }
  const rank = (c: Clause) => [c.q, c.type === "*" ? 0 : 1, c.subtype === "*" ? 0 : 1] as const;
  return clauses
    .map((c, i) => ({ c, i }))
    .sort((a, b) => {
      const [qa, ta, sa] = rank(a.c);
      const [qb, tb, sb] = rank(b.c);
      return qb - qa || tb - ta || sb - sa || a.i - b.i;
    })
    .map(({ c }) => c);
}

interface Negotiated {
  serializer: Serializer;
  pretty: boolean;
  convert?: { kind: string; group: string; version: string };
}

/** What an endpoint allows a serializer to answer with: a transformation, or the object itself (no `convert`). */
type Allows = (serializer: Serializer, convert: Negotiated["convert"]) => boolean;

/** acceptMediaTypeOptions: the clause's parameters, then the endpoint's restrictions. */
function acceptClause(params: Record<string, string>, serializer: Serializer, allows: Allows): Negotiated | undefined {
  let pretty = false;
  let convert: Negotiated["convert"];
  for (const [key, value] of Object.entries(params)) {
    if (key === "as" || key === "g" || key === "v") {
      convert ??= { kind: "", group: "", version: "" };
      if (key === "as") convert.kind = value;
      else if (key === "g") convert.group = value;
      else convert.version = value;
    } else if (key === "stream") {
      if (value !== "" && (!serializer.streams || value !== "watch")) return undefined;
    } else if (key === "sv") {
      if (value !== "" && value !== "v1") return undefined;
    } else if (key === "pretty") {
      pretty = value === "1";
    }
  }
  if (!allows(serializer, convert)) return undefined;
  return convert === undefined ? { serializer, pretty } : { serializer, pretty, convert };
}

const TRANSFORMS: readonly string[] = ["Table", "PartialObjectMetadata", "PartialObjectMetadataList"];

/** RequestScope.AllowsMediaTypeTransform for a resource that has a table convertor. */
function resourceAllows(target: ResponseTarget): Allows {
  return (serializer, convert) => {
    if (convert === undefined) return serializer.subtype !== PROTOBUF_SUBTYPE || (target.protobuf?.() ?? true);
    if (convert.group !== META_GROUP || (convert.version !== "v1" && convert.version !== "v1beta1")) return false;
    if (!TRANSFORMS.includes(convert.kind)) return false;
    return convert.kind !== "Table" || (serializer.tables && target.tables !== false);
  };
}

/** kube's DefaultEndpointRestrictions, which errors are written under: no transformations. */
const noTransforms: Allows = (_serializer, convert) => convert === undefined;

function negotiate(accept: string | undefined, allows: Allows): Negotiated | undefined {
  const json = SERIALIZERS[0] as Serializer;
  if (accept === undefined || accept === "") return { serializer: json, pretty: false };
  for (const clause of parseAccept(accept)) {
    for (const serializer of SERIALIZERS) {
      const typeMatches =
        (clause.type === serializer.type && (clause.subtype === serializer.subtype || clause.subtype === "*")) ||
        (clause.type === "*" && clause.subtype === "*");
      if (!typeMatches) continue;
      const accepted = acceptClause(clause.params, serializer, allows);
      if (accepted) return accepted;
    }
  }
  return undefined;
}

/** Go's strconv.ParseBool; anything else is false, as kube-apiserver ignores the parse error. */
function goBool(value: string): boolean {
  return ["1", "t", "T", "TRUE", "true", "True"].includes(value);
}

/** isPrettyPrint: a non-empty `pretty` query parameter decides; otherwise browsers, curl and wget get it. */
function prettyByRequest(query: URLSearchParams, userAgent: string | undefined): boolean {
  const pretty = query.get("pretty");
  if (pretty !== null && pretty !== "") return goBool(pretty);
  const ua = userAgent ?? "";
  return ua.startsWith("curl") || ua.startsWith("Wget") || ua.startsWith("Mozilla/5.0");
}

const INCLUDE_OBJECT: readonly string[] = ["Metadata", "Object", "None"];

/** TableOptions from the query, validated as kube's optionsForTransform does (400 on a bad includeObject). */
function includeObject(query: URLSearchParams): IncludeObject {
  const value = query.get("includeObject") ?? "";
  if (value === "") return "Metadata";
  if (INCLUDE_OBJECT.includes(value)) return value as IncludeObject;
  const error = invalid("includeObject", value, "must be 'Metadata', 'Object', 'None', or empty");
  throw badRequest(`Unable to convert to Table as requested: ${formatFieldError(error)}`);
}

/** Go's %T of the object kube-apiserver transforms: the internal type of a built-in kind. */
function goTypeName(target: ResponseTarget): string {
  const k = target.kind;
  const suffix = target.list ? "List" : "";
  if (k === undefined) return `*unstructured.Unstructured${suffix}`;
  const packages: Record<string, string> = {
    "": "core",
    "events.k8s.io": "core",
    "internal.apiserver.k8s.io": "apiserverinternal",
  };
  const pkg = packages[k.group] ?? (k.group.split(".")[0] as string);
  return `*${pkg}.${k.kind}${suffix}`;
}

function notAcceptableObject(message: string): StatusError {
  return new StatusError(406, "NotAcceptable", message);
}

/**
 * The response format for a request. Throws 406 when nothing in Accept can be served (kube's list of media
 * types; for a watch, the stream media types) and 400 for an invalid `includeObject` with a Table.
 */
export function negotiateResponse(
  accept: string | undefined,
  query: URLSearchParams,
  target: ResponseTarget,
  userAgent?: string,
): ResponseFormat {
  const negotiated = negotiate(accept, resourceAllows(target));
  if (negotiated === undefined) throw notAcceptable(RESPONSE_MEDIA_TYPES);
  const { serializer, convert } = negotiated;
  const yaml = serializer.subtype === "yaml";
  const protobuf = serializer.subtype === PROTOBUF_SUBTYPE;
  const version = convert?.version as MetaVersion;
  const options = convert?.kind === "Table" ? includeObject(query) : undefined;
  if (target.watch && !serializer.streams)
    throw notAcceptable(SERIALIZERS.filter((s) => s.streams).map((s) => `${s.mediaType};stream=watch`));
  // Watch events are encoded without the pretty serializer.
  const pretty = !target.watch && (negotiated.pretty || prettyByRequest(query, userAgent));
  const asYaml = yaml ? { yaml: true } : {};
  const extra = protobuf ? { protobuf: true } : asYaml;
  if (options !== undefined) return { kind: "table", version, includeObject: options, pretty, ...asYaml };
  if (convert?.kind === "PartialObjectMetadata") {
    if (target.list && !target.watch) {
      throw notAcceptableObject(
        `you requested PartialObjectMetadata, but the requested object is a list (${goTypeName(target)})`,
      );
    }
    return { kind: "partial-object-metadata", version, pretty, ...extra };
  }
  if (convert?.kind === "PartialObjectMetadataList") {
    // A watch transforms each event's object, which is not a list: kube-apiserver falls back to the object itself.
    if (target.watch) return protobuf ? { kind: "protobuf" } : { kind: "json", pretty };
    if (!target.list) {
      throw notAcceptableObject(
        `you requested PartialObjectMetadataList, but the requested object is not a list (${goTypeName(target)})`,
      );
    }
    return { kind: "partial-object-metadata", version, pretty, ...extra };
  }
  if (protobuf) return { kind: "protobuf" };
  return yaml ? { kind: "yaml" } : { kind: "json", pretty };
}

/**
 * The encoding of an error's Status: the first serializer the Accept header takes without a transformation,
 * JSON when none does (kube's ErrorNegotiated, which writes raw JSON when negotiation fails).
 */
export function errorFormat(accept: string | undefined): ResponseFormat {
  const serializer = negotiate(accept, noTransforms)?.serializer;
  if (serializer?.subtype === PROTOBUF_SUBTYPE) return { kind: "protobuf" };
  if (serializer?.subtype === "yaml") return { kind: "yaml" };
  return { kind: "json", pretty: false };
}
