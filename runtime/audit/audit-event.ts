// One request's audit event as kube-apiserver's AuditContext keeps it: created once the policy gave the request
// a level above None, filled as the request is served (objectRef from the request and its object, the request
// and response objects as the level allows, the response status), and handed to the backend at each stage the
// policy does not omit.
import { randomUUID } from "node:crypto";
import type { UserInfo } from "../access/user-info.js";
import type { AuditBackend } from "./audit-backend.js";
import type { AuditMetrics } from "./audit-metrics.js";
import { levelAtLeast, type RequestAuditConfig, type Stage } from "./audit-policy.js";
import type { AuditEvent, AuditObjectRef, AuditUser } from "./audit-sink.js";

const maxUserAgentLength = 1024;
const userAgentTruncateSuffix = "...TRUNCATED";

export function auditUser(user: UserInfo | undefined): AuditUser {
  if (user === undefined) return {};
  return {
    username: user.name,
    ...(user.uid === undefined || user.uid === "" ? {} : { uid: user.uid }),
    ...(user.groups.length === 0 ? {} : { groups: user.groups }),
    ...(user.extra === undefined || Object.keys(user.extra).length === 0 ? {} : { extra: user.extra }),
  };
}

/** The second microTime last formatted: its first millisecond and its text up to the seconds. */
let secondStart = Number.NaN;
let secondText = "";
/** `.mmm000Z` for each millisecond of a second. */
const millisecondTexts = Array.from({ length: 1000 }, (_, ms) => `.${String(ms).padStart(3, "0")}000Z`);

/** RFC 3339 with microseconds, as audit timestamps are written. */
export function microTime(date: Date): string {
  // Microseconds are the milliseconds and three zeros; the text up to the seconds changes once a second, so
  // toISOString (a request's largest cost after its JSON) runs once a second rather than twice a request.
  const time = date.getTime();
  const offset = time - secondStart;
  if (offset >= 0 && offset < 1000) return secondText + millisecondTexts[offset];
  const text = date.toISOString();
  secondStart = time - (((time % 1000) + 1000) % 1000);
  secondText = text.slice(0, -5);
  return `${text.slice(0, -1)}000Z`;
}

export function newAuditID(): string {
  return randomUUID();
}

/** A response's Status as an event's responseStatus (kube drops its TypeMeta). */
function statusOf(status: Record<string, unknown>): AuditEvent["responseStatus"] {
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = status;
  return { ...rest, metadata: {}, code: Number(rest.code ?? 0) } as AuditEvent["responseStatus"];
}

function withoutManagedFields(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const object = value as Record<string, unknown>;
  let copy = object;
  const metadata = object.metadata as Record<string, unknown> | undefined;
  if (metadata !== undefined && typeof metadata === "object" && "managedFields" in metadata) {
    const { managedFields: _dropped, ...rest } = metadata;
    copy = { ...object, metadata: rest };
  }
  if (Array.isArray(object.items)) copy = { ...copy, items: object.items.map(withoutManagedFields) };
  return copy;
}

/** kind and apiVersion lead, as kube's encoder writes an object's TypeMeta. */
function typeMetaFirst(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const { kind, apiVersion, ...rest } = value as Record<string, unknown>;
  return { ...(kind === undefined ? {} : { kind }), ...(apiVersion === undefined ? {} : { apiVersion }), ...rest };
}

export interface RequestFacts {
  auditID: string;
  received: Date;
  requestURI: string;
  verb: string;
  user: UserInfo | undefined;
  sourceIPs: string[];
  userAgent: string | undefined;
  objectRef: AuditObjectRef | undefined;
}

export class RequestAudit {
  readonly config: RequestAuditConfig;
  readonly #backend: AuditBackend;
  readonly #metrics: AuditMetrics | undefined;
  readonly #facts: RequestFacts;
  /** Read at each stage: what admission and authorization added by then. */
  readonly #annotations: () => Record<string, string> | undefined;
  /** What every event carries unchanged, made once. */
  readonly #user: AuditUser;
  readonly #userAgent: string | undefined;
  readonly #receivedTimestamp: string;
  #impersonated: AuditUser | undefined;
  #objectRef: AuditObjectRef | undefined;
  /** The objectRef as events carry it; made again once the request object adds to it. */
  #orderedRef: AuditObjectRef | undefined;
  #requestObject: unknown;
  #responseObject: unknown;
  #responseStatus: AuditEvent["responseStatus"];

  constructor(
    config: RequestAuditConfig,
    backend: AuditBackend,
    facts: RequestFacts,
    annotations: () => Record<string, string> | undefined,
    metrics?: AuditMetrics,
  ) {
    this.config = config;
    this.#backend = backend;
    this.#facts = facts;
    this.#annotations = annotations;
    this.#metrics = metrics;
    this.#objectRef = facts.objectRef === undefined ? undefined : { ...facts.objectRef };
    this.#user = auditUser(facts.user);
    let userAgent = facts.userAgent;
    if (userAgent !== undefined && userAgent.length > maxUserAgentLength) {
      userAgent = userAgent.slice(0, maxUserAgentLength) + userAgentTruncateSuffix;
    }
    this.#userAgent = userAgent === "" ? undefined : userAgent;
    this.#receivedTimestamp = microTime(facts.received);
  }

  get level() {
    return this.config.level;
  }

  get hasResponseStatus(): boolean {
    return this.#responseStatus !== undefined;
  }

  impersonated(user: UserInfo): void {
    this.#impersonated = auditUser(user);
  }

  /** The decoded request object (create, update): names the object, and is kept from the Request level. */
  requestObject(object: unknown): void {
    if (object !== null && typeof object === "object") {
      const metadata = ((object as Record<string, unknown>).metadata ?? {}) as Record<string, unknown>;
      this.#objectRef ??= {};
      const ref = this.#objectRef;
      this.#orderedRef = undefined;
      for (const key of ["namespace", "name", "uid", "resourceVersion"] as const) {
        const value = metadata[key];
        if ((ref[key] ?? "") === "" && typeof value === "string" && value !== "") ref[key] = value;
      }
    }
    if (!levelAtLeast(this.level, "Request")) return;
    // Copied now: the handlers go on to change the decoded object (its namespace, defaults).
    const copy = typeMetaFirst(structuredClone(object));
    this.#requestObject = this.config.omitManagedFields ? withoutManagedFields(copy) : copy;
  }

  /** A patch's body as it came (kube logs the patch bytes, not the patched object). */
  requestPatch(patch: unknown): void {
    if (levelAtLeast(this.level, "Request")) this.#requestObject = patch;
  }

  /**
   * The object the response carries, built only at the RequestResponse level (below it, building a GET's object
   * or a list's items again would be the audit's largest cost); `status`, given when the response is a Status, is
   * the response status at every level.
   */
  responseObject(object: () => unknown, status?: Record<string, unknown>): void {
    if (status !== undefined) this.#responseStatus = statusOf(status);
    if (!levelAtLeast(this.level, "RequestResponse")) return;
    const value = object();
    this.#responseObject = this.config.omitManagedFields ? withoutManagedFields(value) : value;
  }

  /** A failure's Status, sent as the response. */
  responseFailure(status: Record<string, unknown>): void {
    this.#responseStatus = statusOf(status);
    if (levelAtLeast(this.level, "RequestResponse")) this.#responseObject = status;
  }

  /** A status the response itself does not carry (a faked success, a panic). */
  responseStatus(status: Record<string, unknown>): void {
    this.#responseStatus = statusOf(status);
  }

  responseCode(code: number): void {
    if (this.#responseStatus === undefined) this.#responseStatus = { metadata: {}, code };
    else this.#responseStatus.code = code;
  }

  /** Builds the event at `stage` and hands it to the backend; false when a blocking-strict backend failed. */
  processStage(stage: Stage): boolean {
    if (this.config.omitStages.includes(stage)) return true;
    const facts = this.#facts;
    const received = stage === "RequestReceived";
    // Fields are added in kube's order (the JSON's), each only when it is set.
    const event = {
      kind: "Event",
      apiVersion: "audit.k8s.io/v1",
      level: this.level,
      auditID: facts.auditID,
      stage,
      requestURI: facts.requestURI,
      verb: facts.verb,
      user: this.#user,
    } as AuditEvent;
    if (this.#impersonated !== undefined && !received) event.impersonatedUser = this.#impersonated;
    if (facts.sourceIPs.length > 0) event.sourceIPs = facts.sourceIPs;
    if (this.#userAgent !== undefined) event.userAgent = this.#userAgent;
    if (this.#objectRef !== undefined) {
      this.#orderedRef ??= orderedRef(this.#objectRef);
      event.objectRef = this.#orderedRef;
    }
    if (!received) {
      if (this.#responseStatus !== undefined) event.responseStatus = { ...this.#responseStatus };
      if (this.#requestObject !== undefined) event.requestObject = this.#requestObject;
      if (this.#responseObject !== undefined) event.responseObject = this.#responseObject;
    }
    event.requestReceivedTimestamp = this.#receivedTimestamp;
    event.stageTimestamp = received ? this.#receivedTimestamp : microTime(new Date());
    const annotations = received ? undefined : this.#annotations();
    if (annotations !== undefined) {
      for (const _ in annotations) {
        event.annotations = { ...annotations };
        break;
      }
    }
    this.#metrics?.observeEvent();
    return this.#backend.processEvents([event]);
  }
}

function orderedRef(ref: AuditObjectRef): AuditObjectRef {
  const out: AuditObjectRef = {};
  for (const key of [
    "resource",
    "namespace",
    "name",
    "uid",
    "apiGroup",
    "apiVersion",
    "resourceVersion",
    "subresource",
  ] as const) {
    const value = ref[key];
    if (value !== undefined && value !== "") out[key] = value;
  }
  return out;
}
