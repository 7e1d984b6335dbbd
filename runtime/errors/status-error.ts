// The one error type the server answers failures with: a Kubernetes Status object, worded and coded as
// kube-apiserver's apimachinery/pkg/api/errors constructors do, since clients match on reason, code and message.
import type { FieldError } from "./field-error.js";
import { errorBody, formatFieldErrors } from "./format-field-error.js";
import { goQuote } from "./go-format.js";

export type StatusReason =
  | "BadRequest"
  | "Unauthorized"
  | "Forbidden"
  | "NotFound"
  | "AlreadyExists"
  | "Conflict"
  | "Gone"
  | "Expired"
  | "Invalid"
  | "MethodNotAllowed"
  | "NotAcceptable"
  | "UnsupportedMediaType"
  | "RequestEntityTooLarge"
  | "TooManyRequests"
  | "InternalError"
  | "ServerTimeout"
  | "Timeout"
  | "ServiceUnavailable";

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, never>;
  status: "Failure";
  message: string;
  /** Absent for kube's StatusReasonUnknown (an error no layer gave a reason). */
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** A group and kind (Invalid) or a group and resource (NotFound, Conflict, …); the core group is "". */
export interface GroupThing {
  group: string;
  name: string;
}

/** GroupKind.String() and GroupResource.String(): `Deployment.apps`, `pods`. */
export function qualified(g: GroupThing): string {
  return g.group === "" ? g.name : `${g.name}.${g.group}`;
}

function details(g: GroupThing | undefined, name: string | undefined): StatusDetails {
  const d: StatusDetails = {};
  if (name !== undefined && name !== "") d.name = name;
  if (g !== undefined && g.group !== "") d.group = g.group;
  if (g !== undefined && g.name !== "") d.kind = g.name;
  return d;
}

export class StatusError extends Error {
  readonly status: Status;

  constructor(code: number, reason: StatusReason | undefined, message: string, statusDetails?: StatusDetails) {
    super(message);
    this.name = "StatusError";
    const base = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message,
      ...(reason === undefined ? {} : { reason }),
    } as const;
    // Key order as kube-apiserver encodes a Status: details before code.
    this.status =
      statusDetails !== undefined && Object.keys(statusDetails).length > 0
        ? { ...base, details: statusDetails, code }
        : { ...base, code };
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): StatusReason | undefined {
    return this.status.reason;
  }
}

/**
 * NewGenericServerResponse with no server message: kube's Status carries details even when they name nothing
 * (`"details":{}`).
 */
export function genericServerResponse(code: number, reason: StatusReason, message: string): StatusError {
  const error = new StatusError(code, reason, message);
  const { code: statusCode, ...rest } = error.status;
  (error as { status: Status }).status = { ...rest, details: {}, code: statusCode };
  return error;
}

/** 422: `Deployment.apps "x" is invalid: [spec.replicas: Invalid value: -1: …, …]`. */
export function invalid(kind: GroupThing, name: string, errors: readonly FieldError[]): StatusError {
  const causes = errors.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field }));
  const message =
    errors.length === 0
      ? `${qualified(kind)} ${goQuote(name)} is invalid`
      : `${qualified(kind)} ${goQuote(name)} is invalid: ${formatFieldErrors(errors)}`;
  return new StatusError(422, "Invalid", message, { ...details(kind, name), causes });
}

/** 404 for a named object of a resource: `deployments.apps "x" not found`. */
export function notFound(resource: GroupThing, name: string): StatusError {
  return new StatusError(404, "NotFound", `${qualified(resource)} ${goQuote(name)} not found`, details(resource, name));
}

export function alreadyExists(resource: GroupThing, name: string): StatusError {
  return new StatusError(
    409,
    "AlreadyExists",
    `${qualified(resource)} ${goQuote(name)} already exists`,
    details(resource, name),
  );
}

/** A 409 Conflict: a write lost a race (or an apply met another owner) and may be tried again. */
export function isConflict(error: unknown): boolean {
  return error instanceof StatusError && error.code === 409 && error.reason === "Conflict";
}

/** 409 on a stale resourceVersion or a failed precondition; `cause` is the explanation after the colon. */
export function conflict(resource: GroupThing, name: string, cause: string): StatusError {
  return new StatusError(
    409,
    "Conflict",
    `Operation cannot be fulfilled on ${qualified(resource)} ${goQuote(name)}: ${cause}`,
    details(resource, name),
  );
}

export function badRequest(message: string): StatusError {
  return new StatusError(400, "BadRequest", message);
}

export function unauthorized(message = "Unauthorized"): StatusError {
  return new StatusError(401, "Unauthorized", message);
}

/** 403: `pods "x" is forbidden: <why>`; without a name `pods is forbidden: <why>`. */
export function forbidden(resource: GroupThing, name: string, why: string): StatusError {
  let message: string;
  if (resource.name === "" && resource.group === "") message = `forbidden: ${why}`;
  else if (name === "") message = `${qualified(resource)} is forbidden: ${why}`;
  else message = `${qualified(resource)} ${goQuote(name)} is forbidden: ${why}`;
  return new StatusError(403, "Forbidden", message, details(resource, name));
}

/** 405: `<verb> is not supported on resources of kind "deployments.apps"`, unless the message says otherwise. */
export function methodNotSupported(resource: GroupThing, action: string, message?: string): StatusError {
  return new StatusError(
    405,
    "MethodNotAllowed",
    message ?? `${action} is not supported on resources of kind ${goQuote(qualified(resource))}`,
    details(resource, undefined),
  );
}

export function gone(message: string): StatusError {
  return new StatusError(410, "Gone", message);
}

/** 410 for a watch or list continue from a compacted resourceVersion. */
export function expired(message: string): StatusError {
  return new StatusError(410, "Expired", message);
}

export function notAcceptable(accepted: readonly string[]): StatusError {
  return new StatusError(406, "NotAcceptable", `only the following media types are accepted: ${accepted.join(", ")}`);
}

export function unsupportedMediaType(accepted: readonly string[]): StatusError {
  return new StatusError(
    415,
    "UnsupportedMediaType",
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(", ")}`,
  );
}

export function requestEntityTooLarge(message: string): StatusError {
  return new StatusError(413, "RequestEntityTooLarge", `Request entity too large: ${message}`);
}

export function internal(message: string): StatusError {
  return new StatusError(500, "InternalError", `Internal error occurred: ${message}`, { causes: [{ message }] });
}

export function timeout(message: string, retryAfterSeconds = 0): StatusError {
  const d: StatusDetails = retryAfterSeconds > 0 ? { retryAfterSeconds } : {};
  return new StatusError(504, "Timeout", `Timeout: ${message}`, d);
}

export function tooManyRequests(message: string, retryAfterSeconds = 0): StatusError {
  const d: StatusDetails = retryAfterSeconds > 0 ? { retryAfterSeconds } : {};
  return new StatusError(429, "TooManyRequests", `Too many requests: ${message}`, d);
}

export function serviceUnavailable(message: string): StatusError {
  return new StatusError(503, "ServiceUnavailable", message);
}
