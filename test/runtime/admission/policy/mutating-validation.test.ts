// Invalid MutatingAdmissionPolicies are refused with kube-apiserver v1.36.2's 422 texts (recorded with
// kubectl create --dry-run=server on the reference), and a valid one gets failurePolicy Fail by default.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InProcessServer } from "../../../../runtime/index.js";
import { policiesPath, send, startWithMutatingPolicies } from "./mutating-policy-helpers.js";

let server: InProcessServer;
beforeAll(async () => {
  server = await startWithMutatingPolicies();
});
afterAll(() => server.close());

const rule = (operations: string[]) => ({
  resourceRules: [{ apiGroups: [""], apiVersions: ["v1"], operations, resources: ["configmaps"] }],
});

async function refusal(name: string, spec: object): Promise<string> {
  const answer = await send(server, "POST", policiesPath, {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "MutatingAdmissionPolicy",
    metadata: { name },
    spec,
  });
  expect(answer.status).toBe(422);
  return answer.body.message as string;
}

describe("MutatingAdmissionPolicy validation", () => {
  it("requires matchConstraints, mutations and reinvocationPolicy", async () => {
    expect(await refusal("d-bad1", {})).toBe(
      `MutatingAdmissionPolicy.admissionregistration.k8s.io "d-bad1" is invalid: [spec.matchConstraints: Required value, spec.mutations: Required value: mutations must contain at least one item, spec.reinvocationPolicy: Required value]`,
    );
  });

  it("checks policies, operations and patch types", async () => {
    const spec = {
      failurePolicy: "Maybe",
      reinvocationPolicy: "Sometimes",
      matchConstraints: rule(["CREATE", "DELETE"]),
      mutations: [
        { patchType: "Bogus" },
        { patchType: "JSONPatch" },
        { patchType: "ApplyConfiguration", jsonPatch: { expression: "[]" } },
      ],
    };
    expect(await refusal("d-bad2", spec)).toBe(
      `MutatingAdmissionPolicy.admissionregistration.k8s.io "d-bad2" is invalid: [` +
        `spec.failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore", ` +
        `spec.matchConstraints.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE", ` +
        `spec.mutations[0].patchType: Unsupported value: "Bogus": supported values: "ApplyConfiguration", "JSONPatch", ` +
        `spec.mutations[1].jsonPatch: Required value: must be specified when patchType is JSONPatch, ` +
        `spec.mutations[2].applyConfiguration: Required value: must be specified when patchType is ApplyConfiguration, ` +
        `spec.mutations[2].jsonPatch: Invalid value: "{jsonPatch}": must not be specified when patchType is ApplyConfiguration, ` +
        `spec.reinvocationPolicy: Unsupported value: "Sometimes": supported values: "IfNeeded", "Never"]`,
    );
  });

  it("compiles mutation expressions and checks their result types", async () => {
    const spec = {
      reinvocationPolicy: "Never",
      matchConstraints: rule(["CREATE"]),
      mutations: [
        { patchType: "ApplyConfiguration", applyConfiguration: { expression: `{"a": 1}` } },
        { patchType: "JSONPatch", jsonPatch: { expression: `JSONPatch{op: "add"}` } },
        { patchType: "JSONPatch", jsonPatch: { expression: `[JSONPatch{op: 1}]` } },
        { patchType: "ApplyConfiguration", applyConfiguration: { expression: "  " } },
      ],
    };
    expect(await refusal("d-bad3", spec)).toBe(
      `MutatingAdmissionPolicy.admissionregistration.k8s.io "d-bad3" is invalid: [` +
        `spec.mutations[0].applyConfiguration.expression: Invalid value: "{\\"a\\": 1}": must evaluate to Object but got map(string, int), ` +
        `spec.mutations[1].jsonPatch.expression: Invalid value: "JSONPatch{op: \\"add\\"}": must evaluate to list(JSONPatch) but got JSONPatch, ` +
        `spec.mutations[2].jsonPatch.expression: Invalid value: "[JSONPatch{op: 1}]": compilation failed: ERROR: <input>:1:14: expected type of field 'op' is 'string' but provided type is 'int'\n` +
        ` | [JSONPatch{op: 1}]\n | .............^, ` +
        `spec.mutations[3].applyConfiguration.expression: Required value]`,
    );
  });

  it("defaults failurePolicy to Fail", async () => {
    const created = await send(server, "POST", policiesPath, {
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "MutatingAdmissionPolicy",
      metadata: { name: "d-good" },
      spec: {
        reinvocationPolicy: "Never",
        matchConstraints: rule(["CREATE"]),
        mutations: [{ patchType: "ApplyConfiguration", applyConfiguration: { expression: "Object{}" } }],
      },
    });
    expect(created.status).toBe(201);
    const spec = created.body.spec as { failurePolicy: string; matchConstraints: Record<string, unknown> };
    expect(spec.failurePolicy).toBe("Fail");
    expect(spec.matchConstraints).toMatchObject({
      matchPolicy: "Equivalent",
      namespaceSelector: {},
      objectSelector: {},
    });
  });
});
