import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Authorizer, Decision } from "../../../runtime/access/authorizer.js";
import { createAuthorizer } from "../../../runtime/authz/build-authorizer.js";
import { webhookTestbed, writeWebhookKubeconfig } from "../http/webhook-server.js";
import { pathRequest, resourceRequest } from "./authz-fixtures.js";

const { dir, start } = webhookTestbed("kapi-authz-build-");

const jane = { name: "jane", groups: ["system:authenticated"] };
const admin = { name: "root", groups: ["system:masters", "system:authenticated"] };

/** An authorizer that allows one user, counting how often it was made. */
function fake(user: string) {
  const made = { count: 0 };
  const factory = (): Authorizer => {
    made.count++;
    return {
      authorize: (a): Decision => ({ decision: a.user.name === user ? "allow" : "noOpinion", reason: "" }),
      rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
    };
  };
  return { made, factory };
}

const header = "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n";

describe("createAuthorizer", () => {
  it("puts system:masters first, then the modes in order", async () => {
    const rbac = fake("jane");
    const { authorizer } = createAuthorizer({ authorizationMode: "AlwaysDeny,RBAC" }, { rbac: rbac.factory });
    expect(await authorizer.authorize(resourceRequest(admin))).toEqual({ decision: "allow", reason: "" });
    // AlwaysDeny has no opinion, so RBAC after it still decides.
    expect(await authorizer.authorize(resourceRequest(jane))).toEqual({ decision: "allow", reason: "" });
    expect(await authorizer.authorize(resourceRequest({ name: "bob", groups: [] }))).toEqual({
      decision: "noOpinion",
      reason: "Everything is forbidden.",
    });
    expect(rbac.made.count).toBe(1);
  });

  it("allows everything by default and reads an ABAC policy file", async () => {
    expect(await createAuthorizer({}, {}).authorizer.authorize(resourceRequest(jane))).toMatchObject({
      decision: "allow",
    });
    const policy = join(dir, "policy.jsonl");
    writeFileSync(policy, '{"user":"jane","readonly":true}\n');
    const { authorizer } = createAuthorizer({ authorizationMode: "ABAC", authorizationPolicyFile: policy }, {});
    expect(await authorizer.authorize(resourceRequest(jane))).toMatchObject({ decision: "allow" });
    expect(await authorizer.authorize(resourceRequest(jane, { verb: "delete" }))).toMatchObject({
      decision: "noOpinion",
    });
  });

  it("refuses what cannot be built, with kube's words", () => {
    expect(() => createAuthorizer({ authorizationMode: "RBAC" }, {})).toThrow(
      "authorization mode RBAC is not available in this server",
    );
    expect(() =>
      createAuthorizer(
        {
          authorizationMode: "Webhook",
          authorizationWebhookConfigFile: join(dir, "missing.kubeconfig"),
          authorizationWebhookVersion: "v2",
        },
        {},
      ),
    ).toThrow('unsupported webhook authorizer version "v2", supported versions are [v1 v1beta1]');
    const config = join(dir, "abac.yaml");
    writeFileSync(config, `${header}- type: ABAC\n  name: abac\n`);
    expect(() => createAuthorizer({ authorizationConfig: config }, {})).toThrow("open : no such file or directory");
  });

  it("calls a webhook configured by the legacy flags (v1beta1, no opinion on failure)", async () => {
    const server = await start((body) => ({
      body: { status: { allowed: (body as { spec: { user: string } }).spec.user === "jane" } },
    }));
    const { authorizer } = createAuthorizer(
      { authorizationMode: "Webhook", authorizationWebhookConfigFile: writeWebhookKubeconfig(dir, server) },
      {},
    );
    expect(await authorizer.authorize(pathRequest(jane, "/version"))).toEqual({ decision: "allow", reason: "" });
    expect(server.requests[0]?.body).toMatchObject({ apiVersion: "authorization.k8s.io/v1beta1" });
  });

  it("reloads a configuration file, keeping RBAC and Node made once and refusing types not there at start", async () => {
    const server = await start(() => ({ body: { status: { denied: true, reason: "webhook says no" } } }));
    const kubeconfig = writeWebhookKubeconfig(dir, server);
    const config = join(dir, "authz.yaml");
    const rbacOnly = `${header}- type: RBAC\n  name: rbac\n`;
    writeFileSync(config, rbacOnly);
    const rbac = fake("jane");
    const node = fake("system:node:n1");
    const logs: [string, unknown][] = [];
    const served = createAuthorizer(
      { authorizationConfig: config },
      { rbac: rbac.factory, node: node.factory },
      { log: (m, e) => logs.push([m, e]), retryBackoff: { initialDelayMs: 1, factor: 1, jitter: 0, attempts: 1 } },
    );
    const reloading = served.authorizer as Authorizer & { checkFile(): boolean };
    expect(node.made.count).toBe(0);
    const bob = { name: "bob", groups: [] };
    expect(await served.authorizer.authorize(resourceRequest(bob))).toMatchObject({ decision: "noOpinion" });

    const webhook = [
      "- type: Webhook",
      "  name: deny-all",
      "  webhook:",
      "    timeout: 2s",
      "    subjectAccessReviewVersion: v1",
      "    failurePolicy: Deny",
      "    connectionInfo:",
      "      type: KubeConfigFile",
      `      kubeConfigFile: ${kubeconfig}`,
      "",
    ].join("\n");
    writeFileSync(config, `${rbacOnly}${webhook}`);
    expect(reloading.checkFile()).toBe(true);
    expect(await served.authorizer.authorize(resourceRequest(jane))).toMatchObject({ decision: "allow" });
    expect(await served.authorizer.authorize(resourceRequest(bob))).toEqual({
      decision: "deny",
      reason: "webhook says no",
    });
    expect(server.requests).toHaveLength(1);

    writeFileSync(config, `${rbacOnly}- type: Node\n  name: node\n`);
    expect(reloading.checkFile()).toBe(false);
    expect(logs.at(-1)?.[1]).toEqual(
      new Error("authorizer type Node is not allowed if it was not enabled at initial server startup"),
    );
    expect(rbac.made.count).toBe(1);
    served.stop();
  });
});
