// One POST of a ConversionReview to a conversion webhook, failing as client-go's REST client does for
// kube-apiserver: transport errors read `Post "<url>": <cause>`, an answer outside 2xx becomes the Status it
// carries or kube's generic text for its code, an empty or undecodable answer names what was wrong.
// kube's webhook client sends `?timeout=<limit>` and gives up after that limit (30 s by default). A service
// is resolved to an endpoint when the call is made; the resolver's refusal is the cause, as kube's dialer
// returns it.
import type { IncomingMessage } from "node:http";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { formatGoDuration } from "../../authz/authorization-config.js";
import type { ServiceEndpoint, ServiceEndpointResolver } from "../../http/service-resolver.js";
import { isJsonObject } from "../../object/json-object.js";
import type { WebhookEndpoint } from "./webhook-endpoint.js";

/** A failed call; its message is the cause kube puts after `conversion webhook for <kind> failed: `. */
export class WebhookCallError extends Error {}

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

const unknownAuthority = new Set([
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
]);

/** The names a certificate is valid for, as Go lists them for the host's kind (IP addresses or DNS names). */
function certificateNames(error: NodeJS.ErrnoException & { cert?: { subjectaltname?: string } }, host: string) {
  const prefix = isIP(host) === 0 ? "DNS:" : "IP Address:";
  return (error.cert?.subjectaltname ?? "")
    .split(", ")
    .filter((n) => n.startsWith(prefix))
    .map((n) => n.slice(prefix.length))
    .join(", ");
}

type TransportError = NodeJS.ErrnoException & { address?: string; port?: number; cert?: { subjectaltname?: string } };

/** Go's net/http and crypto/tls wording for the transport failures Node reports by code. */
function transportCause(error: TransportError, url: URL, serverName: string): string {
  const code = error.code ?? "";
  if (code === "ECONNREFUSED") {
    const dialed =
      error.address === undefined
        ? url.host
        : `${isIP(error.address) === 6 ? `[${error.address}]` : error.address}:${error.port}`;
    return `dial tcp ${dialed}: connect: connection refused`;
  }
  if (code === "ENOTFOUND") return `dial tcp: lookup ${url.hostname}: no such host`;
  if (code === "ECONNRESET") return "EOF";
  if (unknownAuthority.has(code))
    return "tls: failed to verify certificate: x509: certificate signed by unknown authority";
  if (code === "ERR_TLS_CERT_ALTNAME_INVALID") {
    const names = certificateNames(error, serverName);
    return `tls: failed to verify certificate: x509: certificate is valid for ${names}, not ${serverName}`;
  }
  if (code === "CERT_HAS_EXPIRED")
    return "tls: failed to verify certificate: x509: certificate has expired or is not yet valid";
  return error.message;
}

/** Where one call goes: the URL, and for a service the endpoint it was resolved to and its Host header. */
interface Call {
  url: URL;
  /** The URL as Go prints it in errors. */
  shown: string;
  address?: ServiceEndpoint;
  host?: string;
}

function send(endpoint: WebhookEndpoint, call: Call, payload: Buffer, timeoutMs: number): Promise<Answer> {
  const { url } = call;
  const https = url.protocol === "https:";
  const tls = https
    ? {
        ...(endpoint.ca === undefined ? {} : { ca: endpoint.ca }),
        ...(endpoint.serverName === undefined ? {} : { servername: endpoint.serverName }),
      }
    : {};
  const options = {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, */*",
      "content-length": payload.length,
      ...(call.host === undefined ? {} : { host: call.host }),
    },
    ...(call.address === undefined
      ? {}
      : { hostname: call.address.host, host: call.address.host, port: call.address.port }),
    ...tls,
  };
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let response: IncomingMessage | undefined;
    const fail = (error: TransportError) => {
      clearTimeout(timer);
      const cause =
        error instanceof WebhookCallError
          ? error.message
          : transportCause(error, url, endpoint.serverName ?? url.hostname);
      reject(new WebhookCallError(`Post ${JSON.stringify(call.shown)}: ${cause}`));
    };
    const req = (https ? httpsRequest : httpRequest)(url, options, (res: IncomingMessage) => {
      response = res;
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", fail);
      res.on("end", () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers["content-type"] ?? "",
          body: Buffer.concat(chunks).toString("utf8"),
        });
      });
    });
    // The limit covers the whole exchange, as http.Client.Timeout does; a body cut short by it fails too.
    timer = setTimeout(() => {
      const expired = new WebhookCallError(
        "context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
      );
      req.destroy(expired);
      response?.destroy(expired);
    }, timeoutMs);
    req.on("error", fail);
    req.end(payload);
  });
}

/** client-go keeps at most this much of a text answer in its error. */
const maxUnstructuredTextBytes = 2048;

/** errors.NewGenericServerResponse's text for a code, given the body when it was text. */
function genericServerMessage(status: number, serverMessage: string): string {
  const fixed: Record<number, string> = {
    400: "the server rejected our request for an unknown reason",
    401: "the server has asked for the client to provide credentials",
    404: "the server could not find the requested resource",
    405: "the server does not allow this method on the requested resource",
    409: "the server reported a conflict",
    422: "the server rejected our request due to an error in our request",
    429: "the server has received too many requests and has asked us to try again later",
    503: "the server is currently unable to handle the request",
    504: "the server was unable to return a response in the time allotted, but may still be processing the request",
  };
  if (fixed[status] !== undefined) return fixed[status];
  if (status === 403 || status === 415) return serverMessage;
  if (status === 406) {
    return serverMessage === "unknown"
      ? "the server was unable to respond with a content type that the client supports"
      : serverMessage;
  }
  if (status >= 500)
    return `an error on the server (${JSON.stringify(serverMessage)}) has prevented the request from succeeding`;
  return `the server responded with the status code ${status} but did not return more information`;
}

function mediaType(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** A failed answer: the Status it carries when it is one, else the generic text for its code. */
function unsuccessful(answer: Answer): WebhookCallError {
  const media = mediaType(answer.contentType);
  if (media === "application/json" || media === "") {
    const parsed = parseJson(answer.body);
    if (isJsonObject(parsed) && parsed.kind === "Status" && parsed.status === "Failure") {
      return new WebhookCallError(typeof parsed.message === "string" ? parsed.message : "");
    }
  }
  const serverMessage = media.startsWith("text/") ? answer.body.slice(0, maxUnstructuredTextBytes).trim() : "unknown";
  return new WebhookCallError(genericServerMessage(answer.status, serverMessage));
}

/** The URL of this call, and for a service the endpoint it resolves to now. */
async function callTo(
  endpoint: WebhookEndpoint,
  timeoutMs: number,
  resolveService: ServiceEndpointResolver,
): Promise<Call> {
  const url = new URL(endpoint.url);
  url.searchParams.set("timeout", formatGoDuration(BigInt(Math.round(timeoutMs * 1e6))));
  const { service } = endpoint;
  if (service === undefined) return { url, shown: url.href };
  const shown = `${url.protocol}//${service.hostPort}${url.pathname}${url.search}`;
  try {
    const address = await resolveService(service.namespace, service.name, service.port);
    return { url, shown, address, host: service.hostPort };
  } catch (error) {
    throw new WebhookCallError(`Post ${JSON.stringify(shown)}: ${(error as Error).message}`);
  }
}

/** The decoded JSON answer to `review`; rejects with a WebhookCallError worded as kube's client fails. */
export async function callConversionWebhook(
  endpoint: WebhookEndpoint,
  review: unknown,
  timeoutMs: number,
  resolveService: ServiceEndpointResolver,
): Promise<unknown> {
  const call = await callTo(endpoint, timeoutMs, resolveService);
  const answer = await send(endpoint, call, Buffer.from(JSON.stringify(review)), timeoutMs);
  if (answer.status < 200 || answer.status > 206) throw unsuccessful(answer);
  const contentType = answer.contentType === "" ? "application/json" : answer.contentType;
  if (mediaType(contentType) !== "application/json") {
    throw new WebhookCallError(`serializer for ${contentType} doesn't exist`);
  }
  if (answer.body === "") {
    throw new WebhookCallError(`0-length response with status code: ${answer.status} and content type: ${contentType}`);
  }
  const parsed = parseJson(answer.body);
  if (parsed instanceof Error)
    throw new WebhookCallError(`couldn't get version/kind; json parse error: ${parsed.message}`);
  return parsed;
}
