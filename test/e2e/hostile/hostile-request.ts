// One hostile request, as data: either well-formed HTTP carrying hostile content (sent with node:https), or
// bytes written straight onto a TLS connection, for requests whose framing itself is malformed.

/** Who sends it: the cluster admin (a client certificate or bearer token), or nobody at all. */
export type Credential = "admin" | "anonymous";

export interface HttpRequest {
  kind: "http";
  /** The input class it exercises (`query:limit`, `json:configmaps`, `patch:merge`, …). */
  inputClass: string;
  method: string;
  /** Path and query, sent exactly as written. */
  path: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
  as: Credential;
}

/** What a raw request is built with: the server's host and, for an admin on a token server, its header. */
export interface RawContext {
  host: string;
  /** Header lines (without line ends) that authenticate the request; empty for anonymous or certificates. */
  auth: readonly string[];
}

export interface RawRequest {
  kind: "raw";
  inputClass: string;
  as: Credential;
  build(ctx: RawContext): Buffer;
  /** After writing: wait for the answer, or leave at once as a client that goes away. */
  afterWrite: "answer" | "close";
}

export type HostileRequest = HttpRequest | RawRequest;

/** How the server answered: a status line, or the connection ended (or stalled) without one. */
export type Outcome =
  | { kind: "status"; status: number; body: string }
  | { kind: "closed" }
  | { kind: "timeout" }
  | { kind: "error"; message: string };

export function outcomeText(outcome: Outcome): string {
  switch (outcome.kind) {
    case "status":
      return String(outcome.status);
    case "error":
      return `error ${outcome.message}`;
    default:
      return outcome.kind;
  }
}

/** True when the answer is a server fault: any 5xx but 504, which kube-apiserver gives for timeouts. */
export function isServerFault(outcome: Outcome): boolean {
  return outcome.kind === "status" && outcome.status >= 500 && outcome.status !== 504;
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/** A line that reproduces the request: a curl-like description of HTTP, the bytes of raw requests. */
export function describeRequest(request: HostileRequest, max = 400): string {
  if (request.kind === "raw") {
    const bytes = request.build({ host: "127.0.0.1", auth: [] }).toString("latin1");
    return `[${request.inputClass}] raw as ${request.as}, then ${request.afterWrite}: ${shorten(JSON.stringify(bytes), max)}`;
  }
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(" | ") : value}`)
    .join("; ");
  const body =
    request.body === undefined ? "" : ` body ${shorten(JSON.stringify(request.body.toString("latin1")), max)}`;
  return `[${request.inputClass}] ${request.method} ${shorten(request.path, max)} as ${request.as}${
    headers === "" ? "" : ` {${shorten(headers, max)}}`
  }${body}`;
}
