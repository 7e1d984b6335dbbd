import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import type { Status, StatusDetails } from "../generated/meta/v1/types.js";
import { ClientCredentials } from "./credentials.js";
import type { ExecPluginOptions } from "./exec-credential.js";
import { type ClientConfig, KubeconfigError, loadKubeconfig } from "./kubeconfig.js";
import { type JsonRequest, openRequest, readBody, requestJson } from "./request.js";
import { textLines } from "./text-lines.js";

export interface ApiClientOptions {
  /** How exec credential plugins are run (stdin, terminal detection). */
  exec?: ExecPluginOptions;
  /** How long a non-streaming request may wait on the server; default 30s. */
  timeoutMs?: number;
  /** The User-Agent header; the server names a write's default field manager after its first word. */
  userAgent?: string;
}

export interface FromKubeconfigOptions extends ApiClientOptions {
  /** The kubeconfig file; default: the first entry of $KUBECONFIG, else ~/.kube/config. */
  path?: string;
  /** The kubeconfig's content instead of a file; relative paths in it resolve against `baseDir`. */
  text?: string;
  baseDir?: string;
  /** The context to use instead of `current-context`. */
  context?: string;
}

export type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface ApiRequest {
  method?: string;
  /** The path below the server URL, e.g. `/api/v1/namespaces/default/configmaps`. */
  path: string;
  /** Query parameters; undefined values are left out, arrays repeat the parameter. */
  query?: Record<string, QueryValue>;
  /** Sent as JSON. */
  body?: unknown;
  /** The body's content type; default application/json. */
  contentType?: string;
  headers?: Record<string, string>;
  /** Overrides the client's timeout for this request (ignored by streams). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** A non-2xx answer: the server's Status, or one made from the status code when the body is not a Status. */
export class ApiError extends Error {
  override name = "ApiError";
  readonly status: Status;

  constructor(status: Status) {
    super(status.message ?? `the server answered ${status.code}`);
    this.status = status;
  }

  /** The HTTP status code. */
  get code(): number {
    return this.status.code ?? 0;
  }

  /** The Status reason, e.g. NotFound, AlreadyExists, Conflict, Expired, Gone. */
  get reason(): string {
    return this.status.reason ?? "";
  }

  get details(): StatusDetails | undefined {
    return this.status.details;
  }
}

/** client-go's messages for a failure answered without a Status (newUnstructuredResponseError). */
const unstructuredFailures: Readonly<Record<number, [reason: string, message: string]>> = {
  400: ["BadRequest", "the server rejected our request for an unknown reason"],
  401: ["Unauthorized", "the server has asked for the client to provide credentials"],
  403: ["Forbidden", "the server does not allow access to the requested resource"],
  404: ["NotFound", "the server could not find the requested resource"],
  405: ["MethodNotAllowed", "the server does not allow this method on the requested resource"],
  409: ["Conflict", "the server reported a conflict"],
  410: ["Gone", "the server no longer has the requested resource"],
  413: ["RequestEntityTooLarge", "the server has rejected the request because the request payload is too large"],
  422: ["Invalid", "the server rejected our request due to an error in our request"],
  429: ["TooManyRequests", "the server has received too many requests and has asked us to try again later"],
  500: ["InternalError", "an error on the server has prevented the request from succeeding"],
  503: ["ServiceUnavailable", "the server is currently unable to handle the request"],
  504: [
    "Timeout",
    "the server was unable to return a response in the time allotted, but may still be processing the request",
  ],
};

function isStatus(body: unknown): body is Status {
  return typeof body === "object" && body !== null && (body as { kind?: unknown }).kind === "Status";
}

/** The Status of a failed answer: the server's own, or one made as client-go makes it. */
export function failureStatus(code: number, body: unknown): Status {
  if (isStatus(body)) return { ...body, code: body.code ?? code };
  const [reason, message] = unstructuredFailures[code] ?? [
    "Unknown",
    `the server responded with the status code ${code} but did not return more information`,
  ];
  const text = typeof body === "string" ? body : body === undefined ? "" : JSON.stringify(body);
  return {
    kind: "Status",
    apiVersion: "v1",
    status: "Failure",
    code,
    reason,
    message,
    ...(text === "" ? {} : { details: { causes: [{ reason: "UnexpectedServerResponse", message: text }] } }),
  };
}

const defaultUserAgent = `kapi-client/v1 (${process.platform}/${process.arch}) node/${process.version}`;

/** client-go's default loading rule for one file: the first entry of $KUBECONFIG, else ~/.kube/config. */
export function defaultKubeconfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const first = (env.KUBECONFIG ?? "").split(delimiter).find((entry) => entry !== "");
  return first ?? join(homedir(), ".kube", "config");
}

function queryString(query: Record<string, QueryValue> | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

export class ApiClient {
  readonly config: ClientConfig;
  private readonly credentials: ClientCredentials;
  private readonly timeoutMs: number | undefined;
  private readonly userAgent: string;

  /** Reads a kubeconfig (client-go's loading rules for a single file) for one context. */
  static fromKubeconfig(options: FromKubeconfigOptions = {}): ApiClient {
    const source =
      options.text !== undefined
        ? { text: options.text, ...(options.baseDir === undefined ? {} : { baseDir: options.baseDir }) }
        : { path: options.path ?? defaultKubeconfigPath() };
    const config = loadKubeconfig(source, options.context === undefined ? {} : { context: options.context });
    return new ApiClient(config, options);
  }

  constructor(config: ClientConfig, options: ApiClientOptions = {}) {
    this.config = config;
    try {
      this.credentials = new ClientCredentials(config, options.exec === undefined ? {} : { exec: options.exec });
    } catch (error) {
      throw new KubeconfigError(`invalid configuration: ${(error as Error).message}`, { cause: error });
    }
    this.timeoutMs = options.timeoutMs;
    this.userAgent = options.userAgent ?? defaultUserAgent;
  }

  /** The kubeconfig context's namespace ("default" when it names none). */
  get namespace(): string {
    return this.config.namespace;
  }

  /** A JSON request; resolves with the parsed body of a 2xx answer, rejects with an ApiError otherwise. */
  async request<R = unknown>(request: ApiRequest): Promise<R> {
    const timeoutMs = request.timeoutMs ?? this.timeoutMs;
    const response = await requestJson(this.credentials, {
      ...this.jsonRequest(request),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    if (response.status < 200 || response.status > 299)
      throw new ApiError(failureStatus(response.status, response.body));
    return response.body as R;
  }

  /**
   * A streaming request (watch): yields the answer's lines as they arrive, until the server ends the answer,
   * the connection drops (the iterator throws) or `request.signal` aborts (the iterator ends). A non-2xx
   * answer rejects with an ApiError before any line.
   */
  async stream(request: ApiRequest): Promise<AsyncIterable<string>> {
    const response = await openRequest(this.credentials, { ...this.jsonRequest(request), timeoutMs: 0 });
    const status = response.statusCode ?? 0;
    if (status < 200 || status > 299) throw new ApiError(failureStatus(status, await readBody(response)));
    const { signal } = request;
    return {
      async *[Symbol.asyncIterator]() {
        try {
          yield* textLines(response);
        } catch (error) {
          if (signal?.aborted !== true) throw error;
        } finally {
          response.destroy();
        }
      },
    };
  }

  private jsonRequest(request: ApiRequest): JsonRequest {
    return {
      path: request.path + queryString(request.query),
      ...(request.method === undefined ? {} : { method: request.method }),
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(request.contentType === undefined ? {} : { contentType: request.contentType }),
      headers: { "user-agent": this.userAgent, ...request.headers },
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    };
  }
}
