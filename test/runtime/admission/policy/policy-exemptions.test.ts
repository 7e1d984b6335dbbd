// Which admissionregistration.k8s.io writes admission policies see. As ../shared/reference answers: a policy
// applies to webhook configurations (422 "… is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: …"),
// never to policies and bindings themselves.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InProcessServer, startServer } from "../../../../runtime/index.js";

let server: InProcessServer;
beforeAll(async () => {
  server = await startServer({ listen: false, controllers: false });
  for (const [resource, body] of [
    [
      "validatingadmissionpolicies",
      {
        kind: "ValidatingAdmissionPolicy",
        metadata: { name: "deny-admission-config" },
        spec: {
          failurePolicy: "Fail",
          matchConstraints: {
            resourceRules: [
              {
                apiGroups: ["admissionregistration.k8s.io"],
                apiVersions: ["v1"],
                operations: ["CREATE"],
                resources: ["validatingwebhookconfigurations", "validatingadmissionpolicies"],
              },
            ],
          },
          validations: [{ expression: "false", message: "no configuration" }],
        },
      },
    ],
    [
      "validatingadmissionpolicybindings",
      {
        kind: "ValidatingAdmissionPolicyBinding",
        metadata: { name: "deny-admission-config" },
        spec: { policyName: "deny-admission-config", validationActions: ["Deny"] },
      },
    ],
  ] as const) {
    const res = await create(resource, body);
    expect(res.status).toBe(201);
  }
});
afterAll(() => server.close());

async function create(resource: string, body: object): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await server.request({
    method: "POST",
    path: `/apis/admissionregistration.k8s.io/v1/${resource}`,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ apiVersion: "admissionregistration.k8s.io/v1", ...body }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("admission policy exemptions", () => {
  it("applies policies to webhook configurations", async () => {
    const res = await create("validatingwebhookconfigurations", {
      kind: "ValidatingWebhookConfiguration",
      metadata: { name: "hooks" },
      webhooks: [],
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      "validatingwebhookconfigurations.admissionregistration.k8s.io \"hooks\" is forbidden: ValidatingAdmissionPolicy 'deny-admission-config' with binding 'deny-admission-config' denied request: no configuration",
    );
  });

  it("never applies them to policies", async () => {
    const res = await create("validatingadmissionpolicies", {
      kind: "ValidatingAdmissionPolicy",
      metadata: { name: "another" },
      spec: {
        matchConstraints: {
          resourceRules: [{ apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["pods"] }],
        },
        validations: [{ expression: "true" }],
      },
    });
    expect(res.status).toBe(201);
  });
});
