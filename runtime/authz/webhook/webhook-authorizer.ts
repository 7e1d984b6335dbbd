// kube's webhook authorizer: the request's attributes go to a remote service as a SubjectAccessReview
// (v1 or v1beta1) and its status decides: denied → deny, allowed → allow, neither → no opinion, both →
// deny with an error. matchConditions may skip the webhook first. Answers are cached by the review's spec,
// allows for authorizedTTL and the rest for unauthorizedTTL, and a cached answer is given synchronously;
// a webhook that fails (unreachable, too slow, a non-2xx or malformed answer) or a condition that errors
// yields the failure policy's decision with the error.

import type { Attributes, Authorizer, Decision, SubjectRules } from "../../access/authorizer.js";
import { noOpinion } from "../../access/authorizer.js";
import type { UserInfo } from "../../access/user-info.js";
import { formatFieldErrors } from "../../errors/format-field-error.js";
import {
  defaultRetryBackoff,
  postJsonWithRetry,
  type RetryBackoff,
  type WebhookClient,
} from "../../http/webhook-client.js";
import { ExpiringCache } from "./decision-cache.js";
import { type CompiledMatchConditions, compileMatchConditions, evaluateMatchConditions } from "./match-conditions.js";
import {
  type SubjectAccessReviewSpec,
  type SubjectAccessReviewStatus,
  type SubjectAccessReviewVersion,
  subjectAccessReviewBody,
  subjectAccessReviewSpec,
  subjectAccessReviewStatus,
} from "./review-request.js";

export interface WebhookAuthorizerOptions {
  /** The authorizer's name in the configuration (used in log lines). */
  name: string;
  client: WebhookClient;
  subjectAccessReviewVersion: SubjectAccessReviewVersion;
  /** How long allow answers are cached; 0 caches none. */
  authorizedTtlMs: number;
  /** How long deny and no-opinion answers are cached; 0 caches none. */
  unauthorizedTtlMs: number;
  timeoutMs: number;
  failurePolicy: "NoOpinion" | "Deny";
  matchConditions?: readonly { expression: string }[];
  retryBackoff?: RetryBackoff;
  now?: () => number;
}

/** kube does not cache requests whose requester-controlled attributes are this long or longer. */
const maxCachedAttributesLength = 10_000;

function cacheable(a: Attributes): boolean {
  const parts = [a.namespace, a.verb, a.apiGroup, a.apiVersion, a.resource, a.subresource, a.name, a.path];
  return parts.reduce((sum, p) => sum + p.length, 0) < maxCachedAttributesLength;
}

function decide(status: SubjectAccessReviewStatus): Decision {
  if (status.allowed && status.denied) {
    return {
      decision: "deny",
      reason: status.reason,
      error: "webhook subject access review returned both allow and deny response",
    };
  }
  if (status.denied) return { decision: "deny", reason: status.reason };
  return { decision: status.allowed ? "allow" : "noOpinion", reason: status.reason };
}

/** The rest client's words for a non-2xx answer: a Status's message, or the bare code. */
function failedStatus(status: number, body: unknown): Error {
  const message = (body as { kind?: unknown; message?: unknown } | undefined)?.message;
  if ((body as { kind?: unknown } | undefined)?.kind === "Status" && typeof message === "string" && message !== "") {
    return new Error(message);
  }
  return new Error(`the server responded with the status code ${status} but did not return more information`);
}

export class WebhookAuthorizer implements Authorizer {
  private readonly cache: ExpiringCache<SubjectAccessReviewStatus>;
  private readonly conditions: CompiledMatchConditions["conditions"];
  private readonly onError: Decision["decision"];

  /** Throws when a match condition does not compile (the configuration's validation reports it first). */
  constructor(private readonly options: WebhookAuthorizerOptions) {
    const compiled = compileMatchConditions(options.matchConditions ?? []);
    if (compiled.errors.length > 0) throw new Error(formatFieldErrors(compiled.errors));
    this.conditions = compiled.conditions;
    this.onError = options.failurePolicy === "Deny" ? "deny" : "noOpinion";
    this.cache = new ExpiringCache(8192, options.now);
  }

  authorize(a: Attributes): Decision | Promise<Decision> {
    const spec = subjectAccessReviewSpec(a);
    const match = evaluateMatchConditions(this.conditions, spec);
    if (match.error !== undefined) return this.failed(match.error);
    if (!match.matches) return noOpinion;
    const key = JSON.stringify(spec);
    const cached = this.cache.get(key);
    if (cached !== undefined) return decide(cached);
    return this.call(spec, key, cacheable(a));
  }

  /** A webhook's rules cannot be listed. */
  rulesFor(_user: UserInfo, _namespace: string): SubjectRules {
    return {
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: "webhook authorizer does not support user rule resolution",
    };
  }

  private async call(spec: SubjectAccessReviewSpec, key: string, cache: boolean): Promise<Decision> {
    const { client, subjectAccessReviewVersion, timeoutMs } = this.options;
    let status: SubjectAccessReviewStatus;
    try {
      const body = subjectAccessReviewBody(spec, subjectAccessReviewVersion);
      const response = await postJsonWithRetry(
        client,
        body,
        timeoutMs,
        this.options.retryBackoff ?? defaultRetryBackoff,
      );
      if (response.status < 200 || response.status > 299) throw failedStatus(response.status, response.body);
      status = subjectAccessReviewStatus(response.body);
    } catch (error) {
      return this.failed(`Failed to make webhook authorizer request: ${(error as Error).message}`);
    }
    if (cache) {
      this.cache.set(key, status, status.allowed ? this.options.authorizedTtlMs : this.options.unauthorizedTtlMs);
    }
    return decide(status);
  }

  private failed(error: string): Decision {
    return { decision: this.onError, reason: "", error };
  }
}
