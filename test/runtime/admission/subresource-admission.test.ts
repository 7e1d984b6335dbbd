// Admission on the creates kapi answers through strategy hooks (pods/eviction, pods/binding, the bindings
// resource). A ValidatingAdmissionPolicy matching the subresources reports what it sees; the expected texts are
// kube-apiserver v1.36.2's answers to the same requests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InProcessServer, startServer } from "../../../runtime/index.js";

const policyMessage =
  "'op=' + request.operation + ' kind=' + request.kind.group + '/' + request.kind.version + '/' + request.kind.kind" +
  " + ' requestKind=' + request.requestKind.group + '/' + request.requestKind.version + '/' + request.requestKind.kind" +
  " + ' resource=' + request.resource.resource + ' sub=' + request.subResource + ' name=' + request.name" +
  " + ' ns=' + request.namespace + ' object=' + object.kind + '/' + object.apiVersion + ' dryRun=' + string(request.dryRun)" +
  " + ' options=' + (request.options == null ? 'null' : request.options.kind)";

let server: InProcessServer;

async function send(
  method: string,
  path: string,
  body?: object,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await server.request({
    method,
    path,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function created(path: string, body: object): Promise<void> {
  const res = await send("POST", path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

beforeAll(async () => {
  // No controller creates the default service account here, which the ServiceAccount plugin would want.
  server = await startServer({ listen: false, controllers: false, admission: { disablePlugins: ["ServiceAccount"] } });
  await created("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "m-ns1" } });
  for (const name of ["m-p1", "m-p2"]) {
    await created("/api/v1/namespaces/m-ns1/pods", {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name },
      spec: { containers: [{ name: "c", image: "busybox" }] },
    });
  }
  await created("/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingAdmissionPolicy",
    metadata: { name: "m-deny-subresources" },
    spec: {
      failurePolicy: "Fail",
      matchConstraints: {
        resourceRules: [
          {
            apiGroups: [""],
            apiVersions: ["v1"],
            operations: ["CREATE", "CONNECT"],
            resources: ["pods/eviction", "pods/exec", "pods/binding"],
          },
        ],
      },
      validations: [{ expression: "false", messageExpression: policyMessage }],
    },
  });
  await created("/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings", {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingAdmissionPolicyBinding",
    metadata: { name: "m-deny-subresources" },
    spec: {
      policyName: "m-deny-subresources",
      validationActions: ["Deny"],
      matchResources: { namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "m-ns1" } } },
    },
  });
});
afterAll(() => server.close());

function refusal(pod: string, seen: string): Record<string, unknown> {
  const message = `ValidatingAdmissionPolicy 'm-deny-subresources' with binding 'm-deny-subresources' denied request: ${seen}`;
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: `pods "${pod}" is forbidden: ${message}`,
    reason: "Invalid",
    details: { name: pod, kind: "pods", causes: [{ message }] },
    code: 422,
  };
}

describe("admission on subresource creates served by hooks", () => {
  it("shows a policy an eviction as a policy/v1 Eviction of pods/eviction", async () => {
    const eviction = { apiVersion: "policy/v1", kind: "Eviction", metadata: { name: "m-p1", namespace: "m-ns1" } };
    const res = await send("POST", "/api/v1/namespaces/m-ns1/pods/m-p1/eviction", eviction);
    expect(res.body).toEqual(
      refusal(
        "m-p1",
        "op=CREATE kind=policy/v1/Eviction requestKind=policy/v1/Eviction resource=pods sub=eviction name=m-p1 ns=m-ns1 object=Eviction/policy/v1 dryRun=false options=CreateOptions",
      ),
    );
    const dryRun = await send("POST", "/api/v1/namespaces/m-ns1/pods/m-p1/eviction?dryRun=All", eviction);
    expect(dryRun.body).toEqual(
      refusal(
        "m-p1",
        "op=CREATE kind=policy/v1/Eviction requestKind=policy/v1/Eviction resource=pods sub=eviction name=m-p1 ns=m-ns1 object=Eviction/policy/v1 dryRun=true options=CreateOptions",
      ),
    );
    expect((await send("GET", "/api/v1/namespaces/m-ns1/pods/m-p1")).status).toBe(200);
  });

  it("shows it a binding as a v1 Binding of pods/binding; the bindings resource is another resource", async () => {
    const binding = {
      apiVersion: "v1",
      kind: "Binding",
      metadata: { name: "m-p2" },
      target: { kind: "Node", name: "m-node" },
    };
    const res = await send("POST", "/api/v1/namespaces/m-ns1/pods/m-p2/binding", binding);
    expect(res.body).toEqual(
      refusal(
        "m-p2",
        "op=CREATE kind=/v1/Binding requestKind=/v1/Binding resource=pods sub=binding name=m-p2 ns=m-ns1 object=Binding/v1 dryRun=false options=CreateOptions",
      ),
    );
    const legacy = await send("POST", "/api/v1/namespaces/m-ns1/bindings", binding);
    expect(legacy.status).toBe(201);
    const pod = await send("GET", "/api/v1/namespaces/m-ns1/pods/m-p2");
    expect((pod.body.spec as { nodeName?: string }).nodeName).toBe("m-node");
  });
});
