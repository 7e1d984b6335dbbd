import { describe, expect, it } from "vitest";
import type { Authorizer, Decision } from "../../../../runtime/access/authorizer.js";
import { UnionAuthorizer } from "../../../../runtime/authz/union-authorizer.js";
import { StatusError } from "../../../../runtime/errors/status-error.js";
import { parseRequestInfo } from "../../../../runtime/routing/request-info.js";
import type { RequestContext } from "../../../../runtime/server/context.js";
import { authorization } from "../../../../runtime/server/stages/authorization-stage.js";
import { fakeContext } from "../fake-context.js";

function contextFor(method: string, path: string, answer: Decision): RequestContext {
  const ctx = fakeContext({ method, path });
  const url = new URL(path, "http://kapi");
  ctx.info = parseRequestInfo(method, url.pathname, url.searchParams);
  ctx.user = { name: "jane", groups: ["system:authenticated"] };
  const authorizer: Authorizer = {
    authorize: () => answer,
    rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
  };
  ctx.server.access.authorizer = new UnionAuthorizer([authorizer]);
  return ctx;
}

async function refusal(ctx: RequestContext): Promise<StatusError> {
  const error = await authorization.run(ctx, async () => {}).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StatusError);
  return error as StatusError;
}

describe("authorization stage", () => {
  it("hands an allowed request on", async () => {
    const ctx = contextFor("GET", "/api/v1/namespaces/default/pods", { decision: "allow", reason: "" });
    let called = 0;
    await authorization.run(ctx, async () => {
      called++;
    });
    expect(called).toBe(1);
  });

  it("refuses a namespaced request as kube words it, with the reason", async () => {
    const ctx = contextFor("GET", "/api/v1/namespaces/default/pods/web", { decision: "deny", reason: "no way" });
    const error = await refusal(ctx);
    expect(error.status.code).toBe(403);
    expect(error.status.reason).toBe("Forbidden");
    expect(error.status.message).toBe(
      'pods "web" is forbidden: User "jane" cannot get resource "pods" in API group "" in the namespace "default": no way',
    );
    expect(error.status.details).toEqual({ name: "web", kind: "pods" });
  });

  it("refuses cluster-scoped requests, subresources and paths when no authorizer has an opinion", async () => {
    const none: Decision = { decision: "noOpinion", reason: "" };
    expect((await refusal(contextFor("GET", "/apis/apps/v1/deployments", none))).status.message).toBe(
      'deployments.apps is forbidden: User "jane" cannot list resource "deployments" in API group "apps" at the cluster scope',
    );
    expect(
      (await refusal(contextFor("PUT", "/apis/apps/v1/namespaces/ns/deployments/d/scale", none))).status.message,
    ).toBe(
      'deployments.apps "d" is forbidden: User "jane" cannot update resource "deployments/scale" in API group "apps" in the namespace "ns"',
    );
    expect((await refusal(contextFor("GET", "/metrics", none))).status.message).toBe(
      'forbidden: User "jane" cannot get path "/metrics"',
    );
  });
});
