import { describe, expect, it } from "vitest";
import type { Attributes, Authorizer, Decision } from "../../../runtime/access/authorizer.js";
import { celAuthorizer } from "../../../runtime/authz/cel-authorizer.js";

const attributes: Attributes = {
  user: { name: "u", groups: [] },
  verb: "get",
  resourceRequest: false,
  apiGroup: "",
  apiVersion: "",
  resource: "",
  subresource: "",
  namespace: "",
  name: "",
  path: "/healthz",
};

function answering(answer: Decision | Promise<Decision>): Authorizer {
  return { authorize: () => answer, rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: true }) };
}

describe("celAuthorizer", () => {
  it("passes synchronous answers through", () => {
    const decision: Decision = { decision: "deny", reason: "no" };
    expect(celAuthorizer(() => answering(decision)).authorize(attributes)).toBe(decision);
  });

  it("turns an answer that would need waiting into an errored no-opinion", () => {
    const pending = Promise.reject(new Error("unreachable webhook"));
    expect(celAuthorizer(() => answering(pending)).authorize(attributes)).toEqual({
      decision: "noOpinion",
      reason: "",
      error: "the authorizer cannot answer without waiting",
    });
  });
});
