// Webhook token authentication (`--authentication-token-webhook-config-file`, `-version`, `-cache-ttl`;
// k8s.io/apiserver's plugin/pkg/authenticator/token/webhook): a bearer token is POSTed as a TokenReview to the
// endpoint a kubeconfig file names, and the answer's status says who it is. Transient failures (connection
// reset, 429, 500, 504) are retried with kube's backoff (500 ms, ×1.5, five tries); other failures and
// `status.error` are authentication errors. When the API server has audiences, the answer must be for one
// of the wanted audiences (the answer's own, or else the API server's). Answers are cached for the TTL.

import { Backoff } from "../../sdk/backoff.js";
import { type Authenticated, AuthenticationError, type TokenAuthenticator } from "../access/authenticator.js";
import type { UserInfo } from "../access/user-info.js";
import { loadWebhookClient, postJson, type WebhookClient, type WebhookResponse } from "../http/webhook-client.js";
import { CachedTokenAuthenticator } from "./token-cache.js";

export type TokenReviewVersion = "v1" | "v1beta1";

/** The `--authentication-token-webhook-*` flags of kube-apiserver. */
export interface WebhookTokenOptions {
  /** `--authentication-token-webhook-config-file`: a kubeconfig naming the endpoint (the cluster's server). */
  configFile: string;
  /** `--authentication-token-webhook-version`: the TokenReview version spoken; kube's default is v1beta1. */
  version?: string;
  /** `--authentication-token-webhook-cache-ttl`; kube's default is 2 minutes. */
  cacheTtlMs?: number;
}

export interface WebhookCallOptions {
  /** Kube gives each webhook request 30 s. */
  timeoutMs?: number;
  /** The first wait before a retry (kube: 500 ms). */
  retryDelayMs?: number;
}

const defaultCacheTtlMs = 120_000;
const attempts = 5;
const retriedStatuses = new Set([429, 500, 504]);

interface TokenReviewStatus {
  authenticated?: boolean;
  user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  audiences?: string[];
  error?: string;
}

function isConnectionReset(error: unknown): boolean {
  return (error as { code?: string }).code === "ECONNRESET";
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function intersect(wanted: readonly string[], got: readonly string[]): string[] {
  return wanted.filter((audience) => got.includes(audience));
}

export class WebhookTokenAuthenticator implements TokenAuthenticator {
  private readonly timeoutMs: number;
  private readonly retryDelayMs: number;

  constructor(
    private readonly client: WebhookClient,
    private readonly version: TokenReviewVersion,
    private readonly implicitAudiences: readonly string[],
    call: WebhookCallOptions = {},
  ) {
    this.timeoutMs = call.timeoutMs ?? 30_000;
    this.retryDelayMs = call.retryDelayMs ?? 500;
  }

  async authenticateToken(token: string, audiences?: readonly string[]): Promise<Authenticated | undefined> {
    const wanted = audiences !== undefined && audiences.length > 0 ? audiences : this.implicitAudiences;
    const review = {
      apiVersion: `authentication.k8s.io/${this.version}`,
      kind: "TokenReview",
      metadata: { creationTimestamp: null },
      spec: { token, ...(wanted.length === 0 ? {} : { audiences: [...wanted] }) },
      status: { user: {} },
    };
    const status = this.statusOf(await this.post(review));
    let matched: string[] | undefined;
    if (wanted.length > 0) {
      const answered = strings(status.audiences);
      matched = intersect(wanted, answered.length > 0 ? answered : this.implicitAudiences);
      if (matched.length === 0) return undefined;
    }
    if (status.authenticated !== true) {
      if (typeof status.error === "string" && status.error !== "") throw new AuthenticationError(status.error);
      return undefined;
    }
    const answered = status.user ?? {};
    const user: UserInfo = {
      name: typeof answered.username === "string" ? answered.username : "",
      groups: strings(answered.groups),
      ...(typeof answered.uid === "string" && answered.uid !== "" ? { uid: answered.uid } : {}),
      ...(answered.extra !== undefined && answered.extra !== null ? { extra: this.extraOf(answered.extra) } : {}),
    };
    return { user, ...(matched === undefined ? {} : { audiences: matched }) };
  }

  private extraOf(extra: unknown): Record<string, string[]> {
    return Object.fromEntries(
      Object.entries(extra as Record<string, unknown>).map(([key, value]) => [key, strings(value)]),
    );
  }

  private async post(review: unknown): Promise<WebhookResponse> {
    const backoff = new Backoff({ firstDelayMs: this.retryDelayMs, factor: 1.5, jitter: 0.2 });
    for (let attempt = 1; ; attempt++) {
      let response: WebhookResponse | undefined;
      let failure: unknown;
      try {
        response = await postJson(this.client, review, this.timeoutMs);
      } catch (error) {
        failure = error;
      }
      const transient = response === undefined ? isConnectionReset(failure) : retriedStatuses.has(response.status);
      if (attempt < attempts && transient) {
        await backoff.wait();
        continue;
      }
      if (response === undefined) {
        throw new AuthenticationError(`Post "${this.client.url}": ${(failure as Error).message}`);
      }
      return response;
    }
  }

  private statusOf(response: WebhookResponse): TokenReviewStatus {
    const body = response.body as
      | { apiVersion?: unknown; kind?: unknown; status?: unknown; message?: unknown }
      | undefined;
    if (response.status < 200 || response.status > 206) {
      const detail = typeof body?.message === "string" ? `: ${body.message}` : "";
      throw new AuthenticationError(`the token webhook answered ${response.status}${detail}`);
    }
    if (body === undefined || body === null || typeof body !== "object" || Array.isArray(body)) {
      throw new AuthenticationError("the token webhook answered without a TokenReview");
    }
    const apiVersion = `authentication.k8s.io/${this.version}`;
    if (
      (body.apiVersion !== undefined && body.apiVersion !== apiVersion) ||
      (body.kind !== undefined && body.kind !== "TokenReview")
    ) {
      throw new AuthenticationError(
        `the token webhook answered a ${String(body.apiVersion)} ${String(body.kind)}, not a ${apiVersion} TokenReview`,
      );
    }
    const status = body.status;
    return typeof status === "object" && status !== null ? (status as TokenReviewStatus) : {};
  }
}

/**
 * The webhook token authenticator kube-apiserver builds from its flags: the kubeconfig read at start, the
 * version checked, answers (successes and failures, not errors) cached for the TTL.
 */
export function webhookTokenAuthenticator(
  options: WebhookTokenOptions,
  apiAudiences: readonly string[],
  call: WebhookCallOptions = {},
): TokenAuthenticator {
  const version = options.version ?? "v1beta1";
  if (version !== "v1" && version !== "v1beta1") {
    throw new Error(`unsupported authentication webhook version "${version}", supported versions are "v1", "v1beta1"`);
  }
  const ttl = options.cacheTtlMs ?? defaultCacheTtlMs;
  return new CachedTokenAuthenticator(
    new WebhookTokenAuthenticator(loadWebhookClient(options.configFile), version, apiAudiences, call),
    { cacheErrors: false, successTtlMs: ttl, failureTtlMs: ttl },
  );
}
