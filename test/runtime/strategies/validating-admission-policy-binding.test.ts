// ValidatingAdmissionPolicyBinding validation over HTTP. The expected texts are ../shared/reference's
// (kube-apiserver v1.36.2) answers to the same bindings, from `kubectl create`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InProcessServer, startServer } from "../../../runtime/index.js";

let server: InProcessServer;
beforeAll(async () => {
  server = await startServer({ listen: false, controllers: false });
});
afterAll(() => server.close());

async function create(name: string, spec: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await server.request({
    method: "POST",
    path: "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "ValidatingAdmissionPolicyBinding",
      metadata: { name },
      spec,
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("ValidatingAdmissionPolicyBinding validation", () => {
  it("requires a parameterNotFoundAction on a paramRef (kube's v1 has no default)", async () => {
    const { status, body } = await create("b1", {
      policyName: "nope",
      validationActions: ["Deny"],
      paramRef: { name: "x" },
    });
    expect(status).toBe(422);
    expect(body.message).toBe(
      'ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "b1" is invalid: spec.paramRef.parameterNotFoundAction: Required value',
    );
  });

  it("reports every problem in kube's order and words", async () => {
    const { status, body } = await create("b2", {
      policyName: "",
      validationActions: ["Deny", "Bogus", "Deny"],
      paramRef: { name: "x", selector: {}, parameterNotFoundAction: "Maybe" },
      matchResources: { matchPolicy: "Other" },
    });
    expect(status).toBe(422);
    const causes = (body.details as { causes: { field: string; message: string }[] }).causes;
    expect(causes.map((c) => `${c.field}: ${c.message}`)).toEqual([
      "spec.policyName: Required value",
      "spec.paramRef.name: Forbidden: name and selector are mutually exclusive",
      "spec.paramRef.selector: Forbidden: name and selector are mutually exclusive",
      'spec.paramRef.parameterNotFoundAction: Unsupported value: "Maybe": supported values: "Deny", "Allow"',
      'spec.matchResources.matchPolicy: Unsupported value: "Other": supported values: "Equivalent", "Exact"',
      'spec.validationActions[1]: Unsupported value: "Bogus": supported values: "Audit", "Deny", "Warn"',
      'spec.validationActions[2]: Duplicate value: "Deny"',
    ]);
  });

  it("requires at least one validation action", async () => {
    const { body } = await create("b3", { policyName: "p" });
    expect(body.message).toBe(
      'ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "b3" is invalid: spec.validationActions: Required value: at least one validation action is required',
    );
  });

  it("stores a valid binding with its defaults", async () => {
    const { status, body } = await create("b4", {
      policyName: "p",
      validationActions: ["Deny"],
      paramRef: { name: "x", parameterNotFoundAction: "Allow" },
      matchResources: {},
    });
    expect(status).toBe(201);
    expect((body.spec as Record<string, unknown>).matchResources).toEqual({
      namespaceSelector: {},
      objectSelector: {},
      matchPolicy: "Equivalent",
    });
  });
});
