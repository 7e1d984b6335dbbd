// The impersonation stage against a scripted authorizer: what each header is authorized as, the user the
// request goes on as, and kube's 400 and 403 texts.
import { describe, expect, it } from "vitest";
import type { Attributes, Authorizer, Decision } from "../../../../runtime/access/authorizer.js";
import type { UserInfo } from "../../../../runtime/access/user-info.js";
import { StatusError } from "../../../../runtime/errors/status-error.js";
import type { RequestContext } from "../../../../runtime/server/context.js";
import { impersonation } from "../../../../runtime/server/stages/impersonation-stage.js";
import { fakeContext } from "../fake-context.js";

const bob: UserInfo = { name: "bob", groups: ["system:authenticated"] };

interface Run {
  ctx: RequestContext;
  asked: Attributes[];
  called: number;
}

/** The stage over `headers`, the authorizer answering `decide` (allow by default) for each check. */
function context(
  headers: Record<string, string>,
  decide: (a: Attributes) => Decision = () => ({ decision: "allow", reason: "" }),
): Run {
  const ctx = fakeContext({ path: "/api/v1/pods", headers });
  ctx.user = bob;
  const run: Run = { ctx, asked: [], called: 0 };
  const authorizer: Authorizer = {
    authorize: (a) => {
      run.asked.push(a);
      return decide(a);
    },
    rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
  };
  ctx.server.access.authorizer = authorizer;
  return run;
}

async function impersonate(run: Run): Promise<Run> {
  await impersonation.run(run.ctx, async () => {
    run.called++;
  });
  return run;
}

async function refusal(run: Run): Promise<StatusError> {
  const error = await impersonate(run).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StatusError);
  expect(run.called).toBe(0);
  return error as StatusError;
}

/** What an attribute check names, compactly. */
const check = (a: Attributes) =>
  `${a.verb} ${a.apiGroup}/${a.apiVersion} ${a.resource}${a.subresource === "" ? "" : `/${a.subresource}`} ${a.namespace}/${a.name}`;

describe("impersonation stage", () => {
  it("passes requests without Impersonate-* headers on untouched", async () => {
    const run = await impersonate(context({ "user-agent": "kubectl" }));
    expect(run.called).toBe(1);
    expect(run.ctx.user).toBe(bob);
    expect(run.asked).toEqual([]);
    expect(run.ctx.authenticatedUser).toBeUndefined();
  });

  it("goes on as the user once the caller may impersonate it, dropping the headers", async () => {
    const run = await impersonate(context({ "impersonate-user": "jane", accept: "application/json" }));
    expect(run.called).toBe(1);
    expect(run.asked.map(check)).toEqual(["impersonate / users /jane"]);
    expect(run.asked[0]?.user).toBe(bob);
    expect(run.ctx.user).toEqual({ name: "jane", groups: ["system:authenticated"] });
    expect(run.ctx.authenticatedUser).toBe(bob);
    expect(run.ctx.req.headers).toEqual({ accept: "application/json" });
  });

  it("checks every group, extra value and the uid, and builds the user of them", async () => {
    const run = await impersonate(
      context({
        "impersonate-user": "jane",
        "impersonate-group": "devs",
        "impersonate-extra-scopes": "view",
        "impersonate-extra-example.com%2fteam": "blue",
        "impersonate-uid": "1234",
      }),
    );
    expect(run.asked.map(check)).toEqual([
      "impersonate / users /jane",
      "impersonate / groups /devs",
      "impersonate authentication.k8s.io/v1 userextras/example.com/team /blue",
      "impersonate authentication.k8s.io/v1 userextras/scopes /view",
      "impersonate authentication.k8s.io/v1 uids /1234",
    ]);
    expect(run.ctx.user).toEqual({
      name: "jane",
      groups: ["devs", "system:authenticated"],
      uid: "1234",
      extra: { "example.com/team": ["blue"], scopes: ["view"] },
    });
    expect(run.ctx.req.headers).toEqual({});
  });

  it("reads repeated headers one by one, as Node keeps them apart", async () => {
    const run = context({ "impersonate-user": "jane", "impersonate-group": "a, b" });
    Object.assign(run.ctx.req, {
      headersDistinct: {
        "impersonate-user": ["jane"],
        "impersonate-group": ["a", "b"],
        "impersonate-extra-k": ["1", "2"],
      },
    });
    await impersonate(run);
    expect(run.ctx.user).toEqual({
      name: "jane",
      groups: ["a", "b", "system:authenticated"],
      extra: { k: ["1", "2"] },
    });
    expect(run.ctx.req.headersDistinct).toEqual({});
  });

  it("impersonates service accounts with their groups unless groups are named", async () => {
    const account = await impersonate(context({ "impersonate-user": "system:serviceaccount:ns1:builder" }));
    expect(account.asked.map(check)).toEqual(["impersonate / serviceaccounts ns1/builder"]);
    expect(account.ctx.user).toEqual({
      name: "system:serviceaccount:ns1:builder",
      groups: ["system:serviceaccounts", "system:serviceaccounts:ns1", "system:authenticated"],
    });
    const named = await impersonate(
      context({ "impersonate-user": "system:serviceaccount:ns1:builder", "impersonate-group": "system:authenticated" }),
    );
    expect(named.ctx.user?.groups).toEqual(["system:authenticated"]);
    // Not a service account's name: an ordinary user.
    const odd = await impersonate(context({ "impersonate-user": "system:serviceaccount:NS:builder" }));
    expect(odd.asked.map(check)).toEqual(["impersonate / users /system:serviceaccount:NS:builder"]);
  });

  it("adds system:authenticated or system:unauthenticated as kube does", async () => {
    const anonymous = await impersonate(context({ "impersonate-user": "system:anonymous" }));
    expect(anonymous.ctx.user?.groups).toEqual(["system:unauthenticated"]);
    const unauthenticated = await impersonate(
      context({ "impersonate-user": "jane", "impersonate-group": "system:unauthenticated" }),
    );
    expect(unauthenticated.ctx.user?.groups).toEqual(["system:unauthenticated"]);
  });

  it("refuses what the caller may not impersonate with kube's 403", async () => {
    const user = await refusal(context({ "impersonate-user": "jane" }, () => ({ decision: "noOpinion", reason: "" })));
    expect(user.status).toMatchObject({
      code: 403,
      reason: "Forbidden",
      message:
        'users "jane" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
      details: { name: "jane", kind: "users" },
    });
    const account = await refusal(
      context({ "impersonate-user": "system:serviceaccount:ns1:sa" }, () => ({ decision: "deny", reason: "not you" })),
    );
    expect(account.status.message).toBe(
      'serviceaccounts "sa" is forbidden: User "bob" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "ns1": not you',
    );
    const extra = await refusal(
      context({ "impersonate-user": "jane", "impersonate-extra-scopes": "admin" }, (a) => ({
        decision: a.resource === "users" ? "allow" : "noOpinion",
        reason: "",
      })),
    );
    expect(extra.status).toMatchObject({
      message:
        'userextras.authentication.k8s.io "admin" is forbidden: User "bob" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
      details: { name: "admin", group: "authentication.k8s.io", kind: "userextras" },
    });
    // An allow that comes with an error does not do.
    const errored = await refusal(
      context({ "impersonate-user": "jane" }, () => ({ decision: "allow", reason: "", error: "webhook down" })),
    );
    expect(errored.status.code).toBe(403);
  });

  it("refuses groups, extras or a uid without a user with kube's 400", async () => {
    const error = await refusal(
      context({ "impersonate-group": "devs", "impersonate-extra-scopes": "view", "impersonate-uid": "1" }),
    );
    expect(error.status).toMatchObject({
      code: 400,
      reason: "BadRequest",
      message:
        "requested [{Group  devs    } {UserExtra  view  authentication.k8s.io/v1  scopes} {UID  1  authentication.k8s.io/v1  }] without impersonating a user",
    });
    const emptyUser = await refusal(context({ "impersonate-user": "", "impersonate-uid": "1" }));
    expect(emptyUser.status.message).toBe(
      "requested [{UID  1  authentication.k8s.io/v1  }] without impersonating a user",
    );
  });
});
