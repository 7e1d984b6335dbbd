// /openapi/v2, /openapi/v3 and /openapi/v3/<path> answered as kube-openapi's handlers answer them: the
// first Accept clause (by q, then specificity) that names a form the document has, the ETag of its JSON
// bytes, Last-Modified, 304 for a matching If-None-Match or an unchanged If-Modified-Since, gzip for
// clients that accept it, and for a v3 URL carrying the current `hash` immutable caching; a stale `hash`
// is redirected (301) to the current one. A form none of the clauses names is 406 with no body.
import type { IncomingMessage, ServerResponse } from "node:http";
import { pathNotFound } from "../errors/generic-errors.js";
import { parseMediaType } from "../http/accept.js";
import type { OpenApiDocuments } from "./openapi-documents.js";
import type { DocumentBytes, ServedDocument } from "./served-document.js";

export interface OpenApiRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** The decoded request path. */
  path: string;
}

type Headers = Record<string, string | string[]>;

type Form = "json" | "protobuf";

interface Offer {
  subtype: string;
  form: Form;
  contentType: string;
}

const json: Offer = { subtype: "json", form: "json", contentType: "application/json" };
// Both spellings are accepted; the answer names the current one (the `@` form is deprecated).
const protobufOffers = (version: "v2" | "v3"): Offer[] =>
  [
    `com.github.proto-openapi.spec.${version}.v1.0+protobuf`,
    `com.github.proto-openapi.spec.${version}@v1.0+protobuf`,
  ].map((subtype) => ({
    subtype,
    form: "protobuf",
    contentType: `application/com.github.proto-openapi.spec.${version}.v1.0+protobuf`,
  }));
const v2Offers: Offer[] = [json, ...protobufOffers("v2")];
const v3Offers: Offer[] = [json, ...protobufOffers("v3")];

export function isOpenApiPath(path: string): boolean {
  return path === "/openapi/v2" || path === "/openapi/v3" || path.startsWith("/openapi/v3/");
}

/** Answers a GET or HEAD of an OpenAPI path (see isOpenApiPath); a v3 document nothing serves is 404. */
export async function serveOpenApi(request: OpenApiRequest, documents: OpenApiDocuments): Promise<void> {
  const path = request.path;
  if (path === "/openapi/v2") return serveV2(request, await documents.v2());
  if (path === "/openapi/v3") return serveIndex(request, await documents.v3Index());
  const document = await documents.v3(path.slice("/openapi/v3/".length));
  if (!document) throw pathNotFound();
  return serveV3(request, path, document);
}

async function serveV2({ req, res }: OpenApiRequest, document: ServedDocument): Promise<void> {
  const headers: Headers = { Vary: ["Accept", "Accept-Encoding"] };
  const chosen = choose(req, v2Offers, document);
  if (!chosen) return notAcceptable(res, headers);
  headers["Content-Type"] = chosen.offer.contentType;
  // kube-openapi gzips the v2 document for every client that accepts it, and says so in the ETag.
  if (acceptsGzip(req)) {
    headers["Content-Encoding"] = "gzip";
    headers.ETag = quote(`${document.etag}-gzip`);
    return serveContent(req, res, headers, document.lastModified, await chosen.bytes.gzipped());
  }
  headers.ETag = quote(document.etag);
  serveContent(req, res, headers, document.lastModified, chosen.bytes.bytes);
}

function serveIndex({ req, res }: OpenApiRequest, document: ServedDocument): void {
  const headers: Headers = { ETag: quote(document.etag), "Content-Type": "application/json" };
  serveContent(req, res, headers, document.lastModified, document.json.bytes);
}

async function serveV3({ req, res, url }: OpenApiRequest, path: string, document: ServedDocument): Promise<void> {
  const headers: Headers = { Vary: ["Accept"] };
  const chosen = choose(req, v3Offers, document);
  if (!chosen) return notAcceptable(res, headers);
  headers["Content-Type"] = chosen.offer.contentType;
  headers.ETag = quote(document.etag);
  const hash = url.searchParams.get("hash");
  if (hash) {
    if (hash !== document.etag) {
      res.writeHead(301, { ...headers, Location: `${path}?hash=${document.etag}`, "Content-Length": 0 });
      res.end();
      return;
    }
    headers["Cache-Control"] = "public, immutable";
    headers.Expires = oneYearFromNow();
  }
  let body = chosen.bytes.bytes;
  if (chosen.offer.form === "json") {
    headers.Vary = ["Accept", "Accept-Encoding"];
    if (acceptsGzip(req)) {
      headers["Content-Encoding"] = "gzip";
      body = await chosen.bytes.gzipped();
    }
  }
  serveContent(req, res, headers, document.lastModified, body);
}

interface Clause {
  type: string;
  subtype: string;
  q: number;
}

/** Accept clauses best first: by q, then concrete types before wildcards; no header means `*\/*`. */
function acceptClauses(header: string | undefined): Clause[] {
  const text = header === undefined || header.trim() === "" ? "*/*" : header;
  return text
    .split(",")
    .filter((part) => part.trim() !== "")
    .map((part) => {
      const { type, subtype, params } = parseMediaType(part);
      const q = params.q === undefined ? 1 : Number(params.q);
      return { type, subtype, q: Number.isNaN(q) ? 0 : q };
    })
    .filter((c) => c.q > 0)
    .sort((a, b) => b.q - a.q || wildcards(a) - wildcards(b));
}

function wildcards(c: Clause): number {
  return (c.type === "*" ? 2 : 0) + (c.subtype === "*" ? 1 : 0);
}

function choose(
  req: IncomingMessage,
  offers: Offer[],
  document: ServedDocument,
): { offer: Offer; bytes: DocumentBytes } | undefined {
  for (const clause of acceptClauses(req.headers.accept)) {
    for (const offer of offers) {
      if (clause.type !== "*" && clause.type !== "application") continue;
      if (clause.subtype !== "*" && clause.subtype !== offer.subtype) continue;
      const bytes = offer.form === "json" ? document.json : document.protobuf();
      if (bytes) return { offer, bytes };
    }
  }
  return undefined;
}

function notAcceptable(res: ServerResponse, headers: Headers): void {
  res.writeHead(406, { ...headers, "Content-Length": 0 });
  res.end();
}

/** A `gzip` coding in Accept-Encoding whose q, if given, is above zero. */
function acceptsGzip(req: IncomingMessage): boolean {
  const header = req.headers["accept-encoding"];
  const value = Array.isArray(header) ? header.join(",") : (header ?? "");
  return value.split(",").some((part) => {
    const [coding = "", ...params] = part.split(";").map((s) => s.trim());
    if (coding.toLowerCase() !== "gzip") return false;
    const q = params.find((p) => p.toLowerCase().startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

const quote = (etag: string) => `"${etag}"`;

/** Go's time.RFC1123 of a year from now, the Expires kube-openapi sets for hashed URLs. */
function oneYearFromNow(): string {
  const at = new Date();
  at.setUTCFullYear(at.getUTCFullYear() + 1);
  return at.toUTCString().replace(/GMT$/, "UTC");
}

/** If-None-Match (weak comparison) and If-Modified-Since as Go's http.ServeContent evaluates them. */
function notModified(req: IncomingMessage, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = req.headers["if-none-match"];
  if (ifNoneMatch !== undefined) {
    const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
    return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
  }
  const since = Date.parse(req.headers["if-modified-since"] ?? "");
  return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

function serveContent(
  req: IncomingMessage,
  res: ServerResponse,
  headers: Headers,
  lastModified: Date,
  body: Buffer,
): void {
  const etag = headers.ETag as string;
  if (notModified(req, etag, lastModified)) {
    const { "Content-Type": _type, "Content-Encoding": _encoding, ...kept } = headers;
    res.writeHead(304, kept);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, "Last-Modified": lastModified.toUTCString(), "Content-Length": body.length });
  res.end(body);
}
