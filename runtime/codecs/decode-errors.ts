// How kube-apiserver words a body it cannot decode: the two wrappers its write handlers put around a
// decoder's reason (transformDecodeError), naming the kind the body claimed when the decoder got that far,
// otherwise quoting the start of the body; and the names those messages use.
import { badRequest, type StatusError } from "../errors/status-error.js";

/** How kube words a body whose apiVersion and kind it cannot read as JSON (after YAML's conversion, too). */
export const typeMetaPrefix = "couldn't get version/kind; json parse error: ";

/** What the body says it is (defaulted from the endpoint where it says nothing) and what it must become. */
export interface HandledAs {
  kind: string;
  version: string;
  /** The kind of the endpoint, or of the subresource, the body is decoded into. */
  into: string;
}

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/**
 * The group, version and kind a body names, with what it leaves out taken from the endpoint's, as kube's
 * serializer defaults them (gvkWithDefaults); an apiVersion without a slash is a core-group version.
 */
export function bodyGvk(body: Record<string, unknown>, target: GroupVersionKind): GroupVersionKind {
  const apiVersion = typeof body.apiVersion === "string" && body.apiVersion !== "/" ? body.apiVersion : "";
  const slash = apiVersion.indexOf("/");
  let group = slash < 0 ? "" : apiVersion.slice(0, slash);
  let version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  if (version === "" && (group === "" || group === target.group)) {
    group = target.group;
    version = target.version;
  }
  const kind = typeof body.kind === "string" && body.kind !== "" ? body.kind : target.kind;
  return { group, version, kind };
}

/** The names a decoding error gives for `body` decoded at an endpoint serving `target`. */
export function handledAs(body: Record<string, unknown>, target: GroupVersionKind): HandledAs {
  const gvk = bodyGvk(body, target);
  return { kind: gvk.kind, version: gvk.version, into: target.kind };
}

/** A JSON value's type as encoding/json names it in its errors: object, array, string, number, bool. */
export function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (typeof value === "boolean") return "bool";
  return typeof value === "object" ? "object" : typeof value;
}

/** 400: `Deployment in version "v1" cannot be handled as a Deployment: <reason>`. */
export function cannotBeHandled(as: HandledAs, reason: string): StatusError {
  return badRequest(`${as.kind} in version "${as.version}" cannot be handled as a ${as.into}: ${reason}`);
}

/** 400 for a body whose apiVersion and kind could not even be read. */
export function unrecognizedBody(into: string, reason: string, body: Buffer): StatusError {
  return badRequest(`the object provided is unrecognized (must be of type ${into}): ${reason} (${summarize(body)})`);
}

/** kube's summarizeData: up to 30 bytes, as text when the body starts like a JSON object, else in hex. */
function summarize(body: Buffer): string {
  if (body.length === 0) return "<empty>";
  const head = body.subarray(0, 30);
  const more = body.length > 30 ? " ..." : "";
  return body[0] === 0x7b ? `${head.toString("utf8")}${more}` : `${head.toString("hex")}${more}`;
}
