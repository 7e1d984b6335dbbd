// One POST of a review to a webhook, as kube's webhook client makes it: to its URL, or to its service
// (`https://<name>.<namespace>.svc:<port><path>`, the certificate checked for that name, the connection made
// to an endpoint the resolver finds), with `?timeout=<n>s`, the caBundle as the only trusted roots (the
// system's when none), and the credentials the WebhookAdmissionConfiguration gives the host. Failures are
// CallingWebhookErrors worded as kube's (`failed to call webhook: Post "<url>": <Go's error text>`).
import { isIP } from "node:net";
import { goQuote } from "../../errors/go-format.js";
import { internal, StatusError, type StatusReason, serviceUnavailable } from "../../errors/status-error.js";
import type { ServiceEndpointResolver } from "../../http/service-resolver.js";
import {
  postJsonRaw,
  type RawWebhookResponse,
  type WebhookClient,
  WebhookTimeoutError,
} from "../../http/webhook-client.js";
import { isJsonObject } from "../../object/json-object.js";
import type { WebhookSpec } from "./webhook-configurations.js";
import type { CredentialsResolver } from "./webhook-credentials.js";
import { CallingWebhookError } from "./webhook-errors.js";

export interface TransportOptions {
  credentials: CredentialsResolver;
  resolveService: ServiceEndpointResolver;
}

/** client-go's rest client timeout for webhooks without timeoutSeconds. */
const defaultTimeoutSeconds = 30;

interface Target {
  url: URL;
  /** The URL as Go prints it (an explicit default port stays). */
  shown: string;
  hostPort: string;
  serverName?: string;
  service?: { namespace: string; name: string; port: number };
}

function targetOf(spec: WebhookSpec): Target {
  const config = spec.clientConfig ?? {};
  if (config.service !== undefined) {
    const { namespace = "", name = "", path = "", port = 443 } = config.service;
    const serverName = `${name}.${namespace}.svc`;
    return {
      url: new URL(`https://${serverName}:${port}${path}`),
      shown: `https://${serverName}:${port}${path}`,
      hostPort: `${serverName}:${port}`,
      serverName,
      service: { namespace, name, port },
    };
  }
  if (config.url === undefined || config.url === "") {
    throw new CallingWebhookError(
      spec.name,
      `could not get REST client: failed calling webhook ${goQuote(spec.name)}: webhook configuration must have either service or URL`,
      internal("webhook configuration must have either service or URL"),
    );
  }
  let url: URL;
  try {
    url = new URL(config.url);
  } catch (error) {
    throw new CallingWebhookError(
      spec.name,
      `could not get REST client: Unparsable URL: ${(error as Error).message}`,
      internal("Unparsable URL"),
    );
  }
  // `hostname` keeps an IPv6 address's brackets, as Go's host:port has them.
  return { url, shown: config.url, hostPort: `${url.hostname}:${url.port === "" ? "443" : url.port}` };
}

/** crypto/x509's HostnameError text for a certificate that does not name `host`. */
function hostnameError(cert: { subjectaltname?: string } | undefined, host: string): string {
  const entries = (cert?.subjectaltname ?? "").split(", ").filter((e) => e !== "");
  const valuesOf = (prefix: string) => entries.filter((e) => e.startsWith(prefix)).map((e) => e.slice(prefix.length));
  const wantIp = isIP(host) !== 0;
  const valid = wantIp ? valuesOf("IP Address:") : valuesOf("DNS:");
  if (wantIp && valid.length === 0) {
    return `x509: cannot validate certificate for ${host} because it doesn't contain any IP SANs`;
  }
  if (valid.length === 0) return `x509: certificate is not valid for any names, but wanted to match ${host}`;
  return `x509: certificate is valid for ${valid.join(", ")}, not ${host}`;
}

/** Go's text for what went wrong on the way (net/http, crypto/tls, crypto/x509 as kube reports them). */
function goErrorText(error: unknown, target: Target): string {
  if (error instanceof WebhookTimeoutError) return "context deadline exceeded";
  if (error instanceof StatusError) return error.message;
  const e = error as NodeJS.ErrnoException & { address?: string; port?: number; cert?: { subjectaltname?: string } };
  const dialed =
    e.address === undefined ? target.url.host : `${isIP(e.address) === 6 ? `[${e.address}]` : e.address}:${e.port}`;
  switch (e.code) {
    case "ECONNREFUSED":
      return `dial tcp ${dialed}: connect: connection refused`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `dial tcp: lookup ${target.url.hostname}: no such host`;
    case "ECONNRESET":
      return "EOF";
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "UNABLE_TO_GET_ISSUER_CERT_LOCALLY":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
      return "tls: failed to verify certificate: x509: certificate signed by unknown authority";
    case "CERT_HAS_EXPIRED":
    case "CERT_NOT_YET_VALID":
      return "tls: failed to verify certificate: x509: certificate has expired or is not yet valid";
    case "ERR_TLS_CERT_ALTNAME_INVALID": {
      const host = target.serverName ?? target.url.hostname.replace(/^\[|\]$/g, "");
      return `tls: failed to verify certificate: ${hostnameError(e.cert, host)}`;
    }
    default:
      return e.message;
  }
}

function isTextResponse(contentType: string | undefined): boolean {
  if (contentType === undefined || contentType === "") return true;
  return contentType.split(";")[0]?.trim().toLowerCase().startsWith("text/") ?? false;
}

/** client-go's NewGenericServerResponse messages by status code, for an answer that carries no Status. */
function genericMessage(code: number, serverMessage: string): { message: string; reason: StatusReason | undefined } {
  switch (code) {
    case 409:
      return { message: "the server reported a conflict", reason: "AlreadyExists" };
    case 404:
      return { message: "the server could not find the requested resource", reason: "NotFound" };
    case 400:
      return { message: "the server rejected our request for an unknown reason", reason: "BadRequest" };
    case 401:
      return { message: "the server has asked for the client to provide credentials", reason: "Unauthorized" };
    case 403:
      return { message: serverMessage, reason: "Forbidden" };
    case 405:
      return { message: "the server does not allow this method on the requested resource", reason: "MethodNotAllowed" };
    case 422:
      return { message: "the server rejected our request due to an error in our request", reason: "Invalid" };
    case 503:
      return { message: "the server is currently unable to handle the request", reason: "ServiceUnavailable" };
    case 504:
      return {
        message:
          "the server was unable to return a response in the time allotted, but may still be processing the request",
        reason: "Timeout",
      };
    case 429:
      return {
        message: "the server has received too many requests and has asked us to try again later",
        reason: "TooManyRequests",
      };
    default:
      if (code >= 500) {
        return {
          message: `an error on the server (${JSON.stringify(serverMessage)}) has prevented the request from succeeding`,
          reason: "InternalError",
        };
      }
      return {
        message: `the server responded with the status code ${code} but did not return more information`,
        reason: undefined,
      };
  }
}

/** The error of an answer outside 2xx: its Status when it sent one, else client-go's generic one. */
function answerError(raw: RawWebhookResponse): StatusError {
  if (!isTextResponse(raw.contentType)) {
    try {
      const body: unknown = JSON.parse(raw.text);
      if (isJsonObject(body) && body.kind === "Status" && body.status !== "Success") {
        const message = typeof body.message === "string" ? body.message : "";
        const reason =
          typeof body.reason === "string" && body.reason !== "" ? (body.reason as StatusReason) : undefined;
        const code = typeof body.code === "number" ? body.code : raw.status;
        return new StatusError(code, reason, message, isJsonObject(body.details) ? body.details : undefined);
      }
    } catch {
      // Not a Status: the generic answer below.
    }
  }
  const serverMessage = isTextResponse(raw.contentType) ? raw.text.slice(0, 1024).trim() : "unknown";
  const { message, reason } = genericMessage(raw.status, serverMessage);
  return new StatusError(raw.status, reason, message, {
    causes: [{ reason: "UnexpectedServerResponse", message: serverMessage }],
  });
}

const versionKindStruct =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (value === null) return "null";
  return typeof value === "object" ? "object" : typeof value;
}

/** The body as kube's decoder reads it: an object naming its kind and apiVersion. */
function decodeBody(text: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // kube's decoder reads what is not JSON as YAML, where plain text is a string.
    body = text;
  }
  if (!isJsonObject(body)) {
    throw new Error(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(body)} into Go value of type ${versionKindStruct}`,
    );
  }
  if (typeof body.kind !== "string" || body.kind === "") throw new Error(`Object 'Kind' is missing in '${text}'`);
  if (typeof body.apiVersion !== "string" || body.apiVersion === "") {
    throw new Error(`Object 'apiVersion' is missing in '${text}'`);
  }
  return body;
}

/** POSTs the review; resolves to the decoded answer or rejects with a CallingWebhookError. */
export async function postReview(
  spec: WebhookSpec,
  review: unknown,
  options: TransportOptions,
): Promise<Record<string, unknown>> {
  const target = targetOf(spec);
  const seconds = spec.timeoutSeconds ?? defaultTimeoutSeconds;
  const url = new URL(target.url);
  url.searchParams.set("timeout", `${seconds}s`);
  const shown = `Post ${JSON.stringify(`${target.shown}?timeout=${seconds}s`)}`;
  const failed = (reason: string, status: StatusError) =>
    new CallingWebhookError(spec.name, `failed to call webhook: ${reason}`, status);
  let credentials: ReturnType<CredentialsResolver>;
  try {
    credentials = options.credentials(target.hostPort);
  } catch (error) {
    throw new CallingWebhookError(
      spec.name,
      `could not get REST client: ${(error as Error).message}`,
      internal((error as Error).message),
    );
  }
  const caBundle = spec.clientConfig?.caBundle;
  const client: WebhookClient = {
    url,
    insecureSkipTlsVerify: false,
    ...(caBundle === undefined || caBundle === "" ? {} : { ca: Buffer.from(caBundle, "base64").toString("utf8") }),
    ...credentials,
    ...(target.serverName === undefined ? {} : { serverName: target.serverName }),
  };
  const started = Date.now();
  let raw: RawWebhookResponse;
  try {
    if (target.service !== undefined) {
      const { namespace, name, port } = target.service;
      client.address = await options.resolveService(namespace, name, port);
    }
    const remaining = Math.max(1, seconds * 1000 - (Date.now() - started));
    raw = await postJsonRaw(client, review, remaining, {
      accept: "application/json, */*",
      "user-agent": "kube-apiserver-admission",
      // Go sends the URL's host as written, a service's with its port even when it is 443.
      ...(target.service === undefined ? {} : { host: target.hostPort }),
    });
  } catch (error) {
    throw failed(`${shown}: ${goErrorText(error, target)}`, serviceUnavailable("error calling webhook"));
  }
  if (raw.status < 200 || raw.status > 206) {
    const status = answerError(raw);
    throw failed(status.message, status);
  }
  try {
    return decodeBody(raw.text);
  } catch (error) {
    throw failed((error as Error).message, serviceUnavailable("error calling webhook"));
  }
}
