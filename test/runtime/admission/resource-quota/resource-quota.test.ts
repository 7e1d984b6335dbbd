// ResourceQuota admission with the quota controller, driven by kubectl and raw HTTP. Expected texts, codes
// and status lists were recorded from a reference kube-apiserver v1.36.2 with kube-controller-manager, given
// the same requests (namespaces c-t1 and c-ns2 there; objects from test/data/resource-quota/).
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, type KubectlSession, startKubectlSession } from "../../../e2e/kubectl-session.js";

const data = join(import.meta.dirname, "../../../data/resource-quota");

const limitedPod = (name: string) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name },
  spec: {
    containers: [{ name: "c", image: "nginx", resources: { requests: { cpu: "100m" }, limits: { memory: "1Mi" } } }],
  },
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.runIf(haveKubectl)("ResourceQuota admission", () => {
  let s: KubectlSession;

  const status = async (namespace: string, name: string) =>
    JSON.parse(await s.kubectl("get", "quota", "-n", namespace, name, "-o", "json")).status;

  async function post(namespace: string, body: unknown, query = "") {
    const response = await s.server.request({
      method: "POST",
      path: `/api/v1/namespaces/${namespace}/pods${query}`,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { code: response.status, body: await response.json() };
  }

  beforeAll(async () => {
    s = await startKubectlSession();
    await s.kubectl("create", "namespace", "c-t1");
    await s.kubectl("create", "quota", "q", "-n", "c-t1", "--hard=pods=1,requests.cpu=1,limits.memory=1Gi");
    await until(
      () => status("c-t1", "q"),
      (st) => st?.used !== undefined,
    );
  }, 60_000);
  afterAll(() => s?.close());

  it("computes the status of a new quota", async () => {
    expect(await status("c-t1", "q")).toEqual({
      hard: { "limits.memory": "1Gi", pods: "1", "requests.cpu": "1" },
      used: { "limits.memory": "0", pods: "0", "requests.cpu": "0" },
    });
  });

  it("refuses a pod that does not state what the quota tracks", async () => {
    expect(await s.kubectlError("run", "p0", "-n", "c-t1", "--image=nginx", "--restart=Never")).toBe(
      'Error from server (Forbidden): pods "p0" is forbidden: failed quota: q: must specify limits.memory for: p0; requests.cpu for: p0\n',
    );
  });

  it("checks a dry run without charging it, charges a create, and refuses the pod over the limit", async () => {
    expect((await post("c-t1", limitedPod("dry"), "?dryRun=All")).code).toBe(201);
    expect((await status("c-t1", "q")).used).toEqual({ "limits.memory": "0", pods: "0", "requests.cpu": "0" });
    expect((await post("c-t1", limitedPod("p1"))).code).toBe(201);
    expect(await post("c-t1", limitedPod("p2"))).toEqual({
      code: 403,
      body: {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: 'pods "p2" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1',
        reason: "Forbidden",
        details: { name: "p2", kind: "pods" },
        code: 403,
      },
    });
    expect(await s.kubectl("describe", "quota", "-n", "c-t1", "q")).toBe(
      [
        "Name:          q",
        "Namespace:     c-t1",
        "Resource       Used  Hard",
        "--------       ----  ----",
        "limits.memory  1Mi   1Gi",
        "pods           1     1",
        "requests.cpu   100m  1",
        "",
      ].join("\n"),
    );
  });

  it("gives the usage back when the pod is deleted", async () => {
    await s.kubectl("delete", "pod", "-n", "c-t1", "p1", "--grace-period=0", "--force");
    const after = await until(
      () => status("c-t1", "q"),
      (st) => st.used.pods === "0",
    );
    expect(after.used).toEqual({ "limits.memory": "0", pods: "0", "requests.cpu": "0" });
  });

  it("counts pods, services, claims and objects per resource name as kube does", async () => {
    await s.kubectl("create", "namespace", "c-ns2");
    await s.kubectl("apply", "-n", "c-ns2", "-f", join(data, "quotas.yaml"));
    await until(
      () => s.kubectl("get", "quota", "-n", "c-ns2", "-o", "json"),
      (text) => JSON.parse(text).items.every((q: { status?: { used?: unknown } }) => q.status?.used !== undefined),
    );
    await s.kubectl("create", "-n", "c-ns2", "-f", join(data, "consumers.yaml"));
    const used = async () =>
      JSON.parse(await s.kubectl("get", "quota", "-n", "c-ns2", "-o", "json")).items.map(
        (q: { metadata: { name: string }; status: { used: unknown } }) => ({ n: q.metadata.name, used: q.status.used }),
      );
    expect(await used()).toEqual([
      {
        n: "compute",
        used: {
          "count/pods": "1",
          "hugepages-2Mi": "4Mi",
          "limits.cpu": "1",
          "limits.memory": "1184Mi",
          pods: "1",
          "requests.cpu": "500m",
          "requests.example.com/gpu": "1",
          "requests.memory": "644Mi",
        },
      },
      {
        n: "objects",
        used: {
          "c-gold.storageclass.storage.k8s.io/persistentvolumeclaims": "1",
          "c-gold.storageclass.storage.k8s.io/requests.storage": "1536Mi",
          configmaps: "1",
          "count/secrets": "0",
          "count/services": "2",
          persistentvolumeclaims: "2",
          "requests.storage": "1610613737",
          secrets: "0",
          services: "2",
          "services.loadbalancers": "1",
          "services.nodeports": "2",
        },
      },
    ]);
  });

  it("validates hard resource names, quantities, scopes and scope selectors with kube's texts", async () => {
    const bad1 = `apiVersion: v1
kind: ResourceQuota
metadata: {name: bad1, namespace: c-t1}
spec:
  hard: {requests.cpu: "1", pods: "2", foo: "1", "count/x": "1.5", services: "-1"}
  scopes: [BestEffort, NotBestEffort, Weird]
`;
    expect(await s.kubectlError("create", "-f", s.file("bad1.yaml", bad1))).toBe(
      [
        'The ResourceQuota "bad1" is invalid: ',
        '* spec.hard[count/x]: Invalid value: "1500m": must be an integer',
        '* spec.hard[foo]: Invalid value: "foo": must be a standard resource type or fully qualified',
        '* spec.hard[foo]: Invalid value: "foo": must be a standard resource for quota',
        '* spec.hard[services]: Invalid value: "-1": must be greater than or equal to 0',
        '* spec.scopes: Invalid value: ["BestEffort","NotBestEffort","Weird"]: unsupported scope applied to resource',
        '* spec.scopes: Invalid value: ["BestEffort","NotBestEffort","Weird"]: unsupported scope',
        '* spec.scopes: Invalid value: ["BestEffort","NotBestEffort","Weird"]: conflicting scopes',
        "",
      ].join("\n"),
    );
    const bad2 = `apiVersion: v1
kind: ResourceQuota
metadata: {name: bad2, namespace: c-t1}
spec:
  hard: {requests.cpu: "1"}
  scopeSelector:
    matchExpressions:
    - {scopeName: BestEffort, operator: In, values: [a]}
    - {scopeName: PriorityClass, operator: In}
    - {scopeName: PriorityClass, operator: Exists, values: [x]}
    - {scopeName: Terminating, operator: Foo}
`;
    const exists =
      "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity";
    expect(await s.kubectlError("create", "-f", s.file("bad2.yaml", bad2))).toBe(
      [
        'The ResourceQuota "bad2" is invalid: ',
        '* spec.scopeSelector.matchExpressions: Invalid value: {"MatchExpressions":[{"ScopeName":"BestEffort","Operator":"In","Values":["a"]},{"ScopeName":"PriorityClass","Operator":"In","Values":null},{"ScopeName":"PriorityClass","Operator":"Exists","Values":["x"]},{"ScopeName":"Terminating","Operator":"Foo","Values":null}]}: unsupported scope applied to resource',
        `* spec.scopeSelector.matchExpressions.operator: Invalid value: "In": ${exists}`,
        "* spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
        "* spec.scopeSelector.matchExpressions.values: Invalid value: [\"x\"]: must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
        `* spec.scopeSelector.matchExpressions.operator: Invalid value: "Foo": ${exists}`,
        '* spec.scopeSelector.matchExpressions.operator: Invalid value: "Foo": not a valid selector operator',
        "",
      ].join("\n"),
    );
  });

  it("stores the quota's quantities in canonical form", async () => {
    const quota = `apiVersion: v1
kind: ResourceQuota
metadata: {name: fmt1, namespace: c-ns2}
spec:
  hard: {requests.cpu: "1.5", requests.memory: "0.5Gi", limits.cpu: "1000m"}
`;
    const created = JSON.parse(await s.kubectl("create", "-f", s.file("fmt1.yaml", quota), "-o", "json"));
    expect(created.spec).toEqual({ hard: { "limits.cpu": "1", "requests.cpu": "1500m", "requests.memory": "512Mi" } });
  });
});
