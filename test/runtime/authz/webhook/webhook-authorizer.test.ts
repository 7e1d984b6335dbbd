import { describe, expect, it } from "vitest";
import type { Attributes } from "../../../../runtime/access/authorizer.js";
import {
  WebhookAuthorizer,
  type WebhookAuthorizerOptions,
} from "../../../../runtime/authz/webhook/webhook-authorizer.js";
import { loadWebhookClient } from "../../../../runtime/http/webhook-client.js";
import { type Reply, type WebhookServer, webhookTestbed, writeWebhookKubeconfig } from "../../http/webhook-server.js";
import { pathRequest, resourceRequest } from "../authz-fixtures.js";

const { dir, start } = webhookTestbed("kapi-authz-webhook-");

const jane = { name: "jane", groups: ["dev", "system:authenticated"], uid: "u-1", extra: { scopes: ["a", "b"] } };
const status = (s: Record<string, unknown>): Reply => ({ body: { kind: "SubjectAccessReview", status: s } });

async function webhook(
  handler: (body: unknown) => Reply | Promise<Reply>,
  options: Partial<WebhookAuthorizerOptions> = {},
): Promise<{ authorizer: WebhookAuthorizer; server: WebhookServer; clock: { now: number } }> {
  const s = await start(handler);
  const clock = { now: 1_000_000 };
  const authorizer = new WebhookAuthorizer({
    name: "test",
    client: loadWebhookClient(writeWebhookKubeconfig(dir, s)),
    subjectAccessReviewVersion: "v1",
    authorizedTtlMs: 300_000,
    unauthorizedTtlMs: 30_000,
    timeoutMs: 5_000,
    failurePolicy: "NoOpinion",
    retryBackoff: { initialDelayMs: 1, factor: 1, jitter: 0, attempts: 1 },
    now: () => clock.now,
    ...options,
  });
  return { authorizer, server: s, clock };
}

const podGet: Partial<Attributes> = { verb: "get", namespace: "team", name: "web" };

describe("webhook authorizer", () => {
  it("sends a v1 SubjectAccessReview and caches an allow for authorizedTTL, answering synchronously", async () => {
    const { authorizer, server: s, clock } = await webhook(() => status({ allowed: true, reason: "rbac says so" }));
    expect(await authorizer.authorize(resourceRequest(jane, podGet))).toEqual({
      decision: "allow",
      reason: "rbac says so",
    });
    expect(s.requests[0]?.body).toEqual({
      apiVersion: "authorization.k8s.io/v1",
      kind: "SubjectAccessReview",
      metadata: { creationTimestamp: null },
      spec: {
        resourceAttributes: { namespace: "team", verb: "get", version: "v1", resource: "pods", name: "web" },
        user: "jane",
        groups: ["dev", "system:authenticated"],
        uid: "u-1",
        extra: { scopes: ["a", "b"] },
      },
      status: { allowed: false },
    });
    expect(s.requests[0]?.clientCommonName).toBe("kapi");
    const cached = authorizer.authorize(resourceRequest(jane, podGet));
    expect(cached).not.toBeInstanceOf(Promise);
    expect(cached).toEqual({ decision: "allow", reason: "rbac says so" });
    clock.now += 300_001;
    await authorizer.authorize(resourceRequest(jane, podGet));
    expect(s.requests).toHaveLength(2);
  });

  it("speaks v1beta1 (groups as `group`) and caches other answers for unauthorizedTTL", async () => {
    const {
      authorizer,
      server: s,
      clock,
    } = await webhook(() => status({ allowed: false, reason: "nope" }), {
      subjectAccessReviewVersion: "v1beta1",
    });
    const attributes = pathRequest(jane, "/metrics");
    expect(await authorizer.authorize(attributes)).toEqual({ decision: "noOpinion", reason: "nope" });
    const sent = s.requests[0]?.body as { apiVersion: string; spec: Record<string, unknown> };
    expect(sent.apiVersion).toBe("authorization.k8s.io/v1beta1");
    expect(sent.spec).toEqual({
      nonResourceAttributes: { path: "/metrics", verb: "get" },
      user: "jane",
      group: ["dev", "system:authenticated"],
      uid: "u-1",
      extra: { scopes: ["a", "b"] },
    });
    expect(authorizer.authorize(attributes)).toEqual({ decision: "noOpinion", reason: "nope" });
    clock.now += 30_001;
    await authorizer.authorize(attributes);
    expect(s.requests).toHaveLength(2);
  });

  it("decides deny for denied, and deny with an error for allowed and denied together", async () => {
    const { authorizer } = await webhook((body) => {
      const name = (body as { spec: { resourceAttributes: { name: string } } }).spec.resourceAttributes.name;
      return name === "both"
        ? status({ allowed: true, denied: true, reason: "?" })
        : status({ denied: true, reason: "no" });
    });
    expect(await authorizer.authorize(resourceRequest(jane, { name: "x" }))).toEqual({
      decision: "deny",
      reason: "no",
    });
    expect(await authorizer.authorize(resourceRequest(jane, { name: "both" }))).toEqual({
      decision: "deny",
      reason: "?",
      error: "webhook subject access review returned both allow and deny response",
    });
  });

  it("sends field and label selectors as requirements", async () => {
    const { authorizer, server: s } = await webhook(() => status({ allowed: true }));
    await authorizer.authorize(
      resourceRequest(jane, {
        verb: "list",
        fieldSelector: { requirements: [{ field: "spec.nodeName", operator: "=", value: "n1" }] },
        labelSelector: {
          requirements: [
            { key: "app", operator: "in", values: ["a", "b"] },
            { key: "tier", operator: "!", values: [] },
            { key: "size", operator: "gt", values: ["3"] },
          ],
        },
      }),
    );
    const sent = s.requests[0]?.body as { spec: { resourceAttributes: Record<string, unknown> } };
    const attributes = sent.spec.resourceAttributes;
    expect(attributes.fieldSelector).toEqual({
      requirements: [{ key: "spec.nodeName", operator: "In", values: ["n1"] }],
    });
    expect(attributes.labelSelector).toEqual({
      requirements: [
        { key: "app", operator: "In", values: ["a", "b"] },
        { key: "tier", operator: "DoesNotExist" },
      ],
    });
  });

  it("applies the failure policy when the webhook fails, and caches nothing then", async () => {
    let answer: Reply = { status: 500, body: { kind: "Status", message: "internal trouble" } };
    const { authorizer, server: s } = await webhook(() => answer, { failurePolicy: "Deny" });
    expect(await authorizer.authorize(resourceRequest(jane, podGet))).toEqual({
      decision: "deny",
      reason: "",
      error: "Failed to make webhook authorizer request: internal trouble",
    });
    answer = { raw: "not json" };
    expect((await authorizer.authorize(resourceRequest(jane, podGet))).error).toBe(
      "Failed to make webhook authorizer request: the webhook answered 200 with a body that is not JSON",
    );
    answer = { status: 418, raw: "" };
    expect((await authorizer.authorize(resourceRequest(jane, podGet))).error).toBe(
      "Failed to make webhook authorizer request: the server responded with the status code 418 but did not return more information",
    );
    answer = status({ allowed: true });
    expect((await authorizer.authorize(resourceRequest(jane, podGet))).decision).toBe("allow");
    expect(s.requests).toHaveLength(4);
  });

  it("gives no opinion with the error when a NoOpinion webhook is too slow", async () => {
    const { authorizer } = await webhook(() => ({ ...status({ allowed: true }), delayMs: 300 }), { timeoutMs: 50 });
    expect(await authorizer.authorize(resourceRequest(jane, podGet))).toEqual({
      decision: "noOpinion",
      reason: "",
      error: "Failed to make webhook authorizer request: the webhook did not answer within 50ms",
    });
  });

  it("skips the webhook when a match condition is false, calls it when all are true", async () => {
    const { authorizer, server: s } = await webhook(() => status({ allowed: true }), {
      matchConditions: [
        { expression: "has(request.resourceAttributes)" },
        { expression: "request.resourceAttributes.namespace == 'team'" },
        { expression: "'dev' in request.groups && request.extra['scopes'][0] == 'a'" },
      ],
    });
    expect(authorizer.authorize(pathRequest(jane, "/healthz"))).toEqual({ decision: "noOpinion", reason: "" });
    expect(authorizer.authorize(resourceRequest(jane, { namespace: "other" }))).toEqual({
      decision: "noOpinion",
      reason: "",
    });
    expect(s.requests).toHaveLength(0);
    expect(await authorizer.authorize(resourceRequest(jane, podGet))).toEqual({ decision: "allow", reason: "" });
    expect(s.requests).toHaveLength(1);
  });

  it("an erroring condition denies under Deny, skips under NoOpinion, and a false one still skips", async () => {
    const conditions = [{ expression: "request.extra['missing'][0] == 'x'" }];
    const denying = (
      await webhook(() => status({ allowed: true }), { matchConditions: conditions, failurePolicy: "Deny" })
    ).authorizer;
    const denied = denying.authorize(resourceRequest(jane, podGet));
    expect(denied).toMatchObject({ decision: "deny", reason: "" });
    expect((denied as { error: string }).error).toMatch(
      /^cel evaluation error: expression 'request\.extra\['missing'\]\[0\] == 'x'' resulted in error: no such key/,
    );
    const skipping = (await webhook(() => status({ allowed: true }), { matchConditions: conditions })).authorizer;
    expect(skipping.authorize(resourceRequest(jane, podGet))).toMatchObject({ decision: "noOpinion" });
    const falseWins = (
      await webhook(() => status({ allowed: true }), {
        failurePolicy: "Deny",
        matchConditions: [...conditions, { expression: "request.user == 'bob'" }],
      })
    ).authorizer;
    expect(falseWins.authorize(resourceRequest(jane, podGet))).toEqual({ decision: "noOpinion", reason: "" });
  });

  it("refuses conditions that do not compile and cannot list rules", async () => {
    const client = { url: new URL("https://127.0.0.1:1/"), insecureSkipTlsVerify: false };
    const base = {
      name: "w",
      client,
      subjectAccessReviewVersion: "v1" as const,
      authorizedTtlMs: 1,
      unauthorizedTtlMs: 1,
      timeoutMs: 1,
      failurePolicy: "Deny" as const,
    };
    expect(() => new WebhookAuthorizer({ ...base, matchConditions: [{ expression: "request.nope" }] })).toThrow(
      /^matchConditions\[0\]\.expression: Invalid value: "request\.nope": compilation failed: ERROR: <input>:1:8: undefined field 'nope'/,
    );
    expect(() => new WebhookAuthorizer({ ...base, matchConditions: [{ expression: "request.user" }] })).toThrow(
      'matchConditions[0].expression: Invalid value: "request.user": must evaluate to bool but got string',
    );
    expect(new WebhookAuthorizer(base).rulesFor(jane, "team")).toEqual({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: "webhook authorizer does not support user rule resolution",
    });
  });
});
