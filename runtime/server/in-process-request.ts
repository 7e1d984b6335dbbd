// A request handed to startServer's request() rather than read from a socket: what the caller gives, and
// the part of IncomingMessage the pipeline reads (method, target, headers as Node's parser joins them, and
// the body as a stream), so that it goes through the very stages a request over HTTP goes through.
import { type IncomingHttpHeaders, validateHeaderName, validateHeaderValue } from "node:http";
import { Readable } from "node:stream";
import { escapeExtraKey, extraHeaderPrefix, groupHeader, uidHeader, userHeader } from "../authn/impersonation.js";

/** A user to act as, through kube's impersonation headers. */
export interface InProcessUser {
  name: string;
  groups?: readonly string[];
  uid?: string;
  extra?: Readonly<Record<string, readonly string[]>>;
}

export interface InProcessRequest {
  /** Default GET. */
  method?: string;
  /** The request target as on the request line: the path and query (`/api/v1/namespaces/default/pods?limit=5`). */
  path: string;
  /** Request headers by name; a list sends one header more than once. */
  headers?: Readonly<Record<string, string | readonly string[]>>;
  /**
   * The body: text and bytes as they are, any other value as JSON, then with `Content-Type: application/json`
   * unless the headers name a type (patches need theirs).
   */
  body?: string | Uint8Array | object;
  /**
   * Act as this user: sent as Impersonate-User, -Group, -Uid and -Extra-* headers, so the credential the
   * request carries must be allowed to impersonate (the admin's may).
   */
  user?: InProcessUser;
  /**
   * Send no credentials of kapi's own. Without it a request whose headers carry no Authorization gets the admin
   * token's (`Authorization: Bearer <adminToken>`, a system:masters user), as a client with the admin kubeconfig.
   */
  anonymous?: boolean;
}

/** Header names Node's parser keeps once (a repeat is dropped), as its IncomingMessage documents. */
const singleValued = new Set([
  "age",
  "authorization",
  "content-length",
  "content-type",
  "etag",
  "expires",
  "from",
  "host",
  "if-modified-since",
  "if-unmodified-since",
  "last-modified",
  "location",
  "max-forwards",
  "proxy-authorization",
  "referer",
  "retry-after",
  "server",
  "user-agent",
]);

/** An HTTP token (RFC 9110): what a header name is made of. */
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function impersonationHeaders(user: InProcessUser): [string, string][] {
  return [
    [userHeader, user.name],
    ...(user.groups ?? []).map((group): [string, string] => [groupHeader, group]),
    ...(user.uid === undefined ? [] : [[uidHeader, user.uid] as [string, string]]),
    ...Object.entries(user.extra ?? {}).flatMap(([key, values]) =>
      values.map((value): [string, string] => [extraHeaderPrefix + escapeExtraKey(key), value]),
    ),
  ];
}

function bodyBytes(body: InProcessRequest["body"]): { bytes: Buffer; json: boolean } | undefined {
  if (body === undefined) return undefined;
  if (typeof body === "string") return { bytes: Buffer.from(body), json: false };
  if (body instanceof Uint8Array)
    return { bytes: Buffer.from(body.buffer, body.byteOffset, body.byteLength), json: false };
  return { bytes: Buffer.from(JSON.stringify(body)), json: true };
}

/** The request as the pipeline reads an IncomingMessage; it has no socket (and so no peer certificate). */
export class InProcessIncomingMessage extends Readable {
  readonly method: string;
  readonly url: string;
  readonly httpVersion = "1.1";
  readonly httpVersionMajor = 1;
  readonly httpVersionMinor = 1;
  readonly headers: IncomingHttpHeaders = {};
  readonly headersDistinct: Record<string, string[]> = {};
  readonly rawHeaders: string[] = [];
  #body: Buffer | undefined;

  constructor(request: InProcessRequest, adminToken: string) {
    super();
    const method = request.method ?? "GET";
    if (!token.test(method)) throw new TypeError(`invalid HTTP method ${JSON.stringify(method)}`);
    this.method = method;
    this.url = request.path;
    const body = bodyBytes(request.body);
    this.#body = body?.bytes;
    const given = Object.entries(request.headers ?? {}).flatMap(([name, value]) =>
      (typeof value === "string" ? [value] : value).map((one): [string, string] => [name, one]),
    );
    const has = (name: string) => given.some(([n]) => n.toLowerCase() === name);
    const added: [string, string][] = [];
    if (!has("authorization") && request.anonymous !== true) added.push(["Authorization", `Bearer ${adminToken}`]);
    if (body !== undefined && !has("content-length") && !has("transfer-encoding")) {
      added.push(["Content-Length", String(body.bytes.length)]);
    }
    if (body?.json === true && !has("content-type")) added.push(["Content-Type", "application/json"]);
    if (request.user !== undefined) added.push(...impersonationHeaders(request.user));
    for (const [name, value] of [...given, ...added]) this.#addHeader(name, value);
  }

  /** As Node's parser: names lower-cased, repeats kept apart in headersDistinct and joined in headers. */
  #addHeader(name: string, value: string): void {
    validateHeaderName(name);
    validateHeaderValue(name, value);
    this.rawHeaders.push(name, value);
    const key = name.toLowerCase();
    this.headersDistinct[key] = [...(this.headersDistinct[key] ?? []), value];
    const known = this.headers[key];
    if (known === undefined) {
      this.headers[key] = key === "set-cookie" ? [value] : value;
    } else if (key === "set-cookie") {
      (known as string[]).push(value);
    } else if (!singleValued.has(key)) {
      this.headers[key] = `${known}${key === "cookie" ? "; " : ", "}${value}`;
    }
  }

  override _read(): void {
    if (this.#body !== undefined && this.#body.length > 0) this.push(this.#body);
    this.#body = undefined;
    this.push(null);
  }
}
