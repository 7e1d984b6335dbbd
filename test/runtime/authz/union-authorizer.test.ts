import { describe, expect, it } from "vitest";
import type { Attributes, Authorizer, Decision, SubjectRules } from "../../../runtime/access/authorizer.js";
import { PrivilegedGroupAuthorizer } from "../../../runtime/authz/privileged-groups.js";
import { UnionAuthorizer } from "../../../runtime/authz/union-authorizer.js";

const attributes = (groups: string[]): Attributes => ({
  user: { name: "u", groups },
  verb: "get",
  resourceRequest: true,
  apiGroup: "",
  apiVersion: "v1",
  resource: "pods",
  subresource: "",
  namespace: "default",
  name: "p",
  path: "/api/v1/namespaces/default/pods/p",
});

function member(answer: Decision | Promise<Decision>, rules?: Partial<SubjectRules>): Authorizer & { asked: number } {
  const m = {
    asked: 0,
    authorize() {
      m.asked++;
      return answer;
    },
    rulesFor: (): SubjectRules => ({ resourceRules: [], nonResourceRules: [], incomplete: false, ...rules }),
  };
  return m;
}

describe("UnionAuthorizer", () => {
  it("stops at the first allow or deny", async () => {
    const later = member({ decision: "allow", reason: "" });
    const chain = new UnionAuthorizer([
      member({ decision: "noOpinion", reason: "" }),
      member({ decision: "deny", reason: "d" }),
      later,
    ]);
    expect(await chain.authorize(attributes([]))).toEqual({ decision: "deny", reason: "d" });
    expect(later.asked).toBe(0);
  });

  it("answers synchronously while every member does, and waits for one that does not", async () => {
    const sync = new UnionAuthorizer([member({ decision: "allow", reason: "" })]);
    expect(sync.authorize(attributes([]))).toEqual({ decision: "allow", reason: "" });
    const async = new UnionAuthorizer([
      member(Promise.resolve({ decision: "noOpinion", reason: "a" } as Decision)),
      member({ decision: "allow", reason: "b" }),
    ]);
    const answer = async.authorize(attributes([]));
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toEqual({ decision: "allow", reason: "b" });
  });

  it("joins the reasons and errors of members without an opinion", async () => {
    const chain = new UnionAuthorizer([
      member({ decision: "noOpinion", reason: "r1", error: "e1" }),
      member({ decision: "noOpinion", reason: "r2" }),
    ]);
    expect(await chain.authorize(attributes([]))).toEqual({ decision: "noOpinion", reason: "r1\nr2", error: "e1" });
  });

  it("lets system:masters do everything, and no one else", async () => {
    const chain = new UnionAuthorizer([new PrivilegedGroupAuthorizer()]);
    expect((await chain.authorize(attributes(["system:masters"]))).decision).toBe("allow");
    expect((await chain.authorize(attributes(["system:authenticated"]))).decision).toBe("noOpinion");
  });

  it("merges rules and marks them incomplete when one member's are", async () => {
    const rule = { verbs: ["get"], apiGroups: [""], resources: ["pods"], resourceNames: [] };
    const chain = new UnionAuthorizer([
      member({ decision: "noOpinion", reason: "" }, { resourceRules: [rule] }),
      member({ decision: "noOpinion", reason: "" }, { incomplete: true, evaluationError: "webhook" }),
    ]);
    expect(await chain.rulesFor({ name: "u", groups: [] }, "default")).toEqual({
      resourceRules: [rule],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: "webhook",
    });
  });
});
