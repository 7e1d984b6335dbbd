// Priority, DefaultTolerationSeconds and RuntimeClass, on by default, driven by kubectl and raw HTTP. The
// expected values are kube-apiserver v1.36.2's answers to the same requests (its default admission plugins).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, type KubectlSession, startKubectlSession } from "../../../e2e/kubectl-session.js";

const defaultTolerations = [
  { effect: "NoExecute", key: "node.kubernetes.io/not-ready", operator: "Exists", tolerationSeconds: 300 },
  { effect: "NoExecute", key: "node.kubernetes.io/unreachable", operator: "Exists", tolerationSeconds: 300 },
];

/** The fields the plugins set, as `kubectl get pod -o json` shows them (keys sorted by JSON.stringify order). */
function scheduling(podJson: string): Record<string, unknown> {
  const spec = (JSON.parse(podJson) as { spec: Record<string, unknown> }).spec;
  const { tolerations, priority, preemptionPolicy, priorityClassName, overhead, nodeSelector } = spec;
  return { tolerations, priority, preemptionPolicy, priorityClassName, overhead, nodeSelector };
}

describe.skipIf(!haveKubectl)("pod admission plugins on by default", () => {
  let s: KubectlSession;

  beforeAll(async () => {
    // The ServiceAccount plugin would want the default service account, which no controller creates here.
    s = await startKubectlSession({ controllers: false, admission: { disablePlugins: ["ServiceAccount"] } });
    await s.kubectl("create", "namespace", "e-ns1");
  });
  afterAll(() => s.close());

  const run = (name: string, spec: object) =>
    s.kubectl("run", "-n", "e-ns1", name, "--image=nginx", `--overrides=${JSON.stringify({ spec })}`);
  const refusal = (name: string, spec: object) =>
    s.kubectlError("run", "-n", "e-ns1", name, "--image=nginx", `--overrides=${JSON.stringify({ spec })}`);
  const pod = async (name: string) => scheduling(await s.kubectl("get", "pod", "-n", "e-ns1", name, "-o", "json"));

  it("gives a pod the default tolerations and priority 0", async () => {
    const file = s.file(
      "pod1.yaml",
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p1, namespace: e-ns1}\nspec:\n  containers: [{name: c, image: nginx}]\n  tolerations: [{key: a, operator: Exists, effect: NoSchedule}]\n",
    );
    expect(await s.kubectl("create", "-f", file)).toBe("pod/p1 created\n");
    expect(await pod("p1")).toEqual({
      tolerations: [{ effect: "NoSchedule", key: "a", operator: "Exists" }, ...defaultTolerations],
      priority: 0,
      preemptionPolicy: "PreemptLowerPriority",
    });
  });

  it("resolves a PriorityClass and refuses what contradicts it", async () => {
    const file = s.file(
      "pc.yaml",
      "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: e-high}\nvalue: 1000\npreemptionPolicy: Never\n",
    );
    await s.kubectl("create", "-f", file);
    await run("p2", { priorityClassName: "e-high" });
    expect(await pod("p2")).toEqual({
      tolerations: defaultTolerations,
      priority: 1000,
      preemptionPolicy: "Never",
      priorityClassName: "e-high",
    });
    expect(await refusal("p3", { priorityClassName: "e-none" })).toBe(
      'Error from server (Forbidden): pods "p3" is forbidden: no PriorityClass with name e-none was found\n',
    );
    expect(await refusal("p4", { priorityClassName: "e-high", priority: 5 })).toBe(
      'Error from server (Forbidden): pods "p4" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name\n',
    );
    expect(await refusal("p5", { priorityClassName: "e-high", preemptionPolicy: "PreemptLowerPriority" })).toBe(
      'Error from server (Forbidden): pods "p5" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name\n',
    );
    expect(await refusal("p6", { priority: 5 })).toBe(
      'Error from server (Forbidden): pods "p6" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name\n',
    );
    expect(await refusal("p7", { priority: 0, preemptionPolicy: "Never" })).toBe(
      'Error from server (Forbidden): pods "p7" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name\n',
    );
  });

  it("lets any namespace use the system classes", async () => {
    await expect
      .poll(() => s.kubectl("get", "priorityclass", "system-node-critical", "-o", "name"))
      .toBe("priorityclass.scheduling.k8s.io/system-node-critical\n");
    await run("p8", { priorityClassName: "system-node-critical" });
    expect(await pod("p8")).toMatchObject({
      priority: 2000001000,
      preemptionPolicy: "PreemptLowerPriority",
      priorityClassName: "system-node-critical",
    });
  });

  it("keeps one global default class and gives pods its priority", async () => {
    const defaultClass = (name: string, value: number) =>
      `apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: ${name}}\nvalue: ${value}\nglobalDefault: true\n`;
    await s.kubectl("create", "-f", s.file("d1.yaml", defaultClass("e-default", 77)));
    expect(await s.kubectlError("create", "-f", s.file("d2.yaml", defaultClass("e-default2", 78)))).toContain(
      'priorityclasses.scheduling.k8s.io "e-default2" is forbidden: PriorityClass e-default is already marked as default. Only one default can exist\n',
    );
    expect(await s.kubectlError("patch", "priorityclass", "e-high", "-p", '{"globalDefault":true}')).toBe(
      'Error from server (Forbidden): priorityclasses.scheduling.k8s.io "e-high" is forbidden: PriorityClass e-default is already marked as default. Only one default can exist\n',
    );
    expect(
      await s.kubectl("patch", "priorityclass", "e-default", "-p", '{"globalDefault":true,"description":"x"}'),
    ).toBe("priorityclass.scheduling.k8s.io/e-default patched\n");

    await run("p9", {});
    expect(await pod("p9")).toMatchObject({
      priority: 77,
      preemptionPolicy: "PreemptLowerPriority",
      priorityClassName: "e-default",
    });
    // An update that leaves priority and preemptionPolicy out keeps the pod's.
    const current = JSON.parse(await s.kubectl("get", "pod", "-n", "e-ns1", "p9", "-o", "json")) as {
      spec: Record<string, unknown>;
    };
    delete current.spec.priority;
    delete current.spec.preemptionPolicy;
    await s.kubectl("replace", "-f", s.file("p9.json", JSON.stringify(current)));
    expect(await pod("p9")).toMatchObject({ priority: 77, preemptionPolicy: "PreemptLowerPriority" });
    await s.kubectl("delete", "priorityclass", "e-default");
  });

  describe("RuntimeClass", () => {
    const post = async (name: string, spec: object) => {
      const res = await s.server.request({
        method: "POST",
        path: "/api/v1/namespaces/e-ns1/pods",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          apiVersion: "v1",
          kind: "Pod",
          metadata: { name },
          spec: { containers: [{ name: "c", image: "nginx" }], ...spec },
        }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };

    beforeAll(async () => {
      await s.kubectl(
        "create",
        "-f",
        s.file(
          "rc.yaml",
          `apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: e-rc}
handler: runc
overhead:
  podFixed: {cpu: 250m, memory: 120Mi}
scheduling:
  nodeSelector: {rc: "yes", zone: z}
  tolerations:
  - {key: rc-taint, operator: Exists, effect: NoSchedule}
  - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute}
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: e-rc2}
handler: runc
`,
        ),
      );
    });

    it("sets overhead, merges node selector and tolerations", async () => {
      const created = await post("r1", {
        runtimeClassName: "e-rc",
        nodeSelector: { a: "b" },
        tolerations: [{ key: "x", operator: "Exists" }],
      });
      expect(created.status).toBe(201);
      const spec = created.body.spec as Record<string, unknown>;
      expect(spec.overhead).toEqual({ cpu: "250m", memory: "120Mi" });
      expect(spec.nodeSelector).toEqual({ a: "b", rc: "yes", zone: "z" });
      expect(spec.tolerations).toEqual([
        { key: "x", operator: "Exists" },
        { key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 },
        { key: "rc-taint", operator: "Exists", effect: "NoSchedule" },
        { key: "node.kubernetes.io/not-ready", operator: "Exists", effect: "NoExecute" },
      ]);
      const same = await post("r4", { runtimeClassName: "e-rc", overhead: { cpu: "0.25", memory: "120Mi" } });
      expect(same.status).toBe(201);
      expect((same.body.spec as Record<string, unknown>).overhead).toEqual({ cpu: "250m", memory: "120Mi" });
      const plain = await post("r8", { runtimeClassName: "e-rc2" });
      expect(plain.status).toBe(201);
      expect((plain.body.spec as Record<string, unknown>).overhead).toBeUndefined();
    });

    it("refuses with kube's texts", async () => {
      const cases: [string, object, string][] = [
        [
          "r2",
          { runtimeClassName: "e-rc", nodeSelector: { zone: "q" } },
          'pods "r2" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[zone] = z; pod.spec.nodeSelector[zone] = q',
        ],
        [
          "r3",
          { runtimeClassName: "e-rc", overhead: { cpu: "1" } },
          `pods "r3" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`,
        ],
        ["r5", { runtimeClassName: "e-none" }, 'pods "r5" is forbidden: pod rejected: RuntimeClass "e-none" not found'],
        [
          "r6",
          { overhead: { cpu: "1" } },
          'pods "r6" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
        ],
        [
          "r7",
          { runtimeClassName: "e-rc2", overhead: { cpu: "1" } },
          'pods "r7" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
        ],
      ];
      for (const [name, spec, message] of cases) {
        expect(await post(name, spec)).toEqual({
          status: 403,
          body: {
            kind: "Status",
            apiVersion: "v1",
            metadata: {},
            status: "Failure",
            message,
            reason: "Forbidden",
            details: { name, kind: "pods" },
            code: 403,
          },
        });
      }
    });
  });
});
