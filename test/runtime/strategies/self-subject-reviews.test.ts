// SelfSubjectReview and SelfSubjectRulesReview: the caller as the request carries it, and the rules the
// authorizer chain lists for it.
import { describe, expect, it } from "vitest";
import { StatusError } from "../../../runtime/errors/status-error.js";
import { strategy as selfReview } from "../../../runtime/strategies/self-subject-review.js";
import { strategy as rulesReview } from "../../../runtime/strategies/self-subject-rules-review.js";
import { answer, fakeHookRequest, jane } from "./fake-hook-request.js";

describe("SelfSubjectReview", () => {
  it("answers the caller in a new object stamped now", async () => {
    const user = { ...jane, extra: { scopes: ["a", "b"] } };
    const before = Date.now();
    const answered = await answer(
      selfReview,
      { kind: "SelfSubjectReview", metadata: { name: "ignored" } },
      fakeHookRequest({}, user).request,
    );
    expect(answered).toEqual({
      kind: "SelfSubjectReview",
      apiVersion: "authentication.k8s.io/v1",
      metadata: { creationTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) },
      status: {
        userInfo: {
          username: "jane",
          uid: "u-1",
          groups: ["devs", "system:authenticated"],
          extra: { scopes: ["a", "b"] },
        },
      },
    });
    const stamped = Date.parse(String((answered.metadata as { creationTimestamp: string }).creationTimestamp));
    expect(stamped).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
  });
});

describe("SelfSubjectRulesReview", () => {
  it("lists the caller's rules in the namespace asked, as Go encodes them", async () => {
    const fake = fakeHookRequest({
      rules: {
        resourceRules: [
          { verbs: ["get"], apiGroups: [""], resources: ["pods"], resourceNames: [] },
          { verbs: ["create"], apiGroups: [], resources: [], resourceNames: ["x"] },
        ],
        nonResourceRules: [
          { verbs: ["get"], nonResourceURLs: ["/healthz"] },
          { verbs: ["get"], nonResourceURLs: [] },
        ],
        incomplete: true,
        evaluationError: "webhook: no rules",
      },
    });
    const answered = await answer(
      rulesReview,
      { kind: "SelfSubjectRulesReview", metadata: { name: "n" }, spec: { namespace: "ns" } },
      fake.request,
    );
    expect(fake.rulesAsked).toEqual([{ user: jane, namespace: "ns" }]);
    expect(answered).toEqual({
      kind: "SelfSubjectRulesReview",
      apiVersion: "authorization.k8s.io/v1",
      metadata: {},
      spec: {},
      status: {
        resourceRules: [
          { verbs: ["get"], apiGroups: [""], resources: ["pods"] },
          { verbs: ["create"], resourceNames: ["x"] },
        ],
        nonResourceRules: [{ verbs: ["get"], nonResourceURLs: ["/healthz"] }, { verbs: ["get"] }],
        incomplete: true,
        evaluationError: "webhook: no rules",
      },
    });
  });

  it("answers empty lists and refuses a review without a namespace", async () => {
    const answered = await answer(rulesReview, { spec: { namespace: "ns" } }, fakeHookRequest().request);
    expect(answered.status).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: false });
    const error = await answer(rulesReview, { spec: {} }, fakeHookRequest().request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StatusError);
    expect((error as StatusError).status).toMatchObject({
      code: 400,
      reason: "BadRequest",
      message: "no namespace on request",
    });
  });
});
