import { describe, expect, it } from "vitest";
import { AlwaysAllowAuthorizer, AlwaysDenyAuthorizer } from "../../../runtime/authz/always.js";
import { pathRequest, resourceRequest } from "./authz-fixtures.js";

const user = { name: "jane", groups: ["system:authenticated"] };

describe("AlwaysAllow and AlwaysDeny", () => {
  it("AlwaysAllow allows every request and lists `*` rules", () => {
    const a = new AlwaysAllowAuthorizer();
    expect(a.authorize(resourceRequest(user, { verb: "delete" }))).toEqual({ decision: "allow", reason: "" });
    expect(a.authorize(pathRequest(user, "/metrics"))).toEqual({ decision: "allow", reason: "" });
    expect(a.rulesFor()).toEqual({
      resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"], resourceNames: [] }],
      nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }],
      incomplete: false,
    });
  });

  it("AlwaysDeny has no opinion, with kube's reason, and no rules", () => {
    const a = new AlwaysDenyAuthorizer();
    expect(a.authorize(resourceRequest(user))).toEqual({ decision: "noOpinion", reason: "Everything is forbidden." });
    expect(a.rulesFor()).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: false });
  });
});
