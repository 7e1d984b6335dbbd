// A ValidatingAdmissionPolicy whose params are custom resources: the param kind is found among the kinds the
// server serves, custom ones included, as kube-apiserver finds it through its REST mapper. The same objects on
// ../shared/reference deny the 3-key ConfigMap with this very Status (422 Invalid, no reason on the rule).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InProcessServer, startServer } from "../../../../runtime/index.js";

const crd = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "limits.policy.example.com" },
  spec: {
    group: "policy.example.com",
    names: { plural: "limits", singular: "limit", kind: "Limit", listKind: "LimitList" },
    scope: "Cluster",
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: { type: "object", properties: { maxKeys: { type: "integer" } } },
        },
      },
    ],
  },
};

const policy = {
  apiVersion: "admissionregistration.k8s.io/v1",
  kind: "ValidatingAdmissionPolicy",
  metadata: { name: "max-keys" },
  spec: {
    failurePolicy: "Fail",
    paramKind: { apiVersion: "policy.example.com/v1", kind: "Limit" },
    matchConstraints: {
      resourceRules: [{ apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"] }],
    },
    validations: [{ expression: "size(object.data) <= params.maxKeys", message: "too many keys" }],
  },
};

const binding = {
  apiVersion: "admissionregistration.k8s.io/v1",
  kind: "ValidatingAdmissionPolicyBinding",
  metadata: { name: "max-keys" },
  spec: {
    policyName: "max-keys",
    paramRef: { name: "two", parameterNotFoundAction: "Deny" },
    validationActions: ["Deny"],
  },
};

function configMap(name: string, keys: number): object {
  const data = Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, "v"]));
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data };
}

describe("a policy with a custom resource as its param kind", () => {
  let server: InProcessServer;
  beforeAll(async () => {
    server = await startServer({ listen: false });
  });
  afterAll(() => server.close());

  async function post(path: string, body: object): Promise<Response> {
    return server.request({ method: "POST", path, body });
  }

  async function until(done: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 500 && !(await done()); i++) await new Promise((r) => setTimeout(r, 10));
  }

  it("reads its params from the custom resource the binding names", async () => {
    expect((await post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)).status).toBe(201);
    await until(async () => (await server.request({ path: "/apis/policy.example.com/v1/limits" })).status === 200);
    const limit = { apiVersion: "policy.example.com/v1", kind: "Limit", metadata: { name: "two" }, maxKeys: 2 };
    expect((await post("/apis/policy.example.com/v1/limits", limit)).status).toBe(201);
    expect((await post("/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", policy)).status).toBe(201);
    expect(
      (await post("/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings", binding)).status,
    ).toBe(201);

    let denied: { status: number; message: string } | undefined;
    await until(async () => {
      const res = await post("/api/v1/namespaces/default/configmaps?dryRun=All", configMap("probe", 3));
      if (res.status === 201) return false;
      denied = { status: res.status, message: ((await res.json()) as { message: string }).message };
      return true;
    });
    // No reason on the validation: kube answers Invalid.
    expect(denied).toEqual({
      status: 422,
      message: `configmaps "probe" is forbidden: ValidatingAdmissionPolicy 'max-keys' with binding 'max-keys' denied request: too many keys`,
    });
    expect((await post("/api/v1/namespaces/default/configmaps", configMap("small", 2))).status).toBe(201);
  }, 30_000);
});
