// PodNodeSelector, PodTolerationRestriction, AlwaysPullImages, LimitPodHardAntiAffinityTopology and
// ExtendedResourceToleration (off by default) with their configurations, and the toleration-seconds flags.
// The expected values are the answers of a kube-apiserver v1.36.2 started with the same plugins, admission
// configuration and `--default-not-ready-toleration-seconds=120 --default-unreachable-toleration-seconds=240`.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, type KubectlSession, startKubectlSession } from "../../../e2e/kubectl-session.js";

const notReady120 = {
  key: "node.kubernetes.io/not-ready",
  operator: "Exists",
  effect: "NoExecute",
  tolerationSeconds: 120,
};
const unreachable240 = {
  key: "node.kubernetes.io/unreachable",
  operator: "Exists",
  effect: "NoExecute",
  tolerationSeconds: 240,
};

const admissionConfiguration = `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: PodNodeSelector
  path: podnodeselector.yaml
- name: PodTolerationRestriction
  path: ptr.yaml
`;
const podNodeSelectorConfig = `podNodeSelectorPluginConfig:
  clusterDefaultNodeSelector: env=dev
  e-wl: env=prod,tier=web
`;
const podTolerationRestrictionConfig = `apiVersion: podtolerationrestriction.admission.k8s.io/v1alpha1
kind: Configuration
default:
- key: cluster-default
  operator: Exists
  effect: NoSchedule
whitelist:
- key: cluster-default
  operator: Exists
- key: node.kubernetes.io/not-ready
  operator: Exists
- key: node.kubernetes.io/unreachable
  operator: Exists
- key: node.kubernetes.io/memory-pressure
  operator: Exists
- key: ok
  operator: Exists
`;

/** The fields of a pod the plugins set. */
interface PodSpec {
  tolerations?: unknown;
  nodeSelector?: unknown;
  volumes?: unknown;
  containers: { imagePullPolicy?: string }[];
}

/** A Status without a reason: how kube-apiserver answers a plugin's plain (non-API) error. */
function plainFailure(message: string) {
  return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message, code: 500 };
}

function forbiddenStatus(message: string, name?: string) {
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason: "Forbidden",
    details: name === undefined ? { kind: "pods" } : { name, kind: "pods" },
    code: 403,
  };
}

describe.skipIf(!haveKubectl)("pod admission plugins off by default", () => {
  let s: KubectlSession;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "kapi-pod-plugins-"));
    writeFileSync(join(dir, "admission.yaml"), admissionConfiguration);
    writeFileSync(join(dir, "podnodeselector.yaml"), podNodeSelectorConfig);
    writeFileSync(join(dir, "ptr.yaml"), podTolerationRestrictionConfig);
    s = await startKubectlSession({
      controllers: false,
      admission: {
        enablePlugins: [
          "PodNodeSelector",
          "PodTolerationRestriction",
          "AlwaysPullImages",
          "LimitPodHardAntiAffinityTopology",
          "ExtendedResourceToleration",
        ],
        disablePlugins: ["ServiceAccount"],
        configFile: join(dir, "admission.yaml"),
        defaultNotReadyTolerationSeconds: 120,
        defaultUnreachableTolerationSeconds: 240,
      },
    });
    const namespaces: Record<string, Record<string, string>> = {
      "e-a": {},
      "e-wl": {},
      "e-b": {
        "scheduler.alpha.kubernetes.io/node-selector": "zone=z1",
        "scheduler.alpha.kubernetes.io/defaultTolerations":
          '[{"key":"ns-default","operator":"Exists","effect":"NoSchedule"}]',
        "scheduler.alpha.kubernetes.io/tolerationsWhitelist": '[{"operator":"Exists"}]',
      },
      "e-c": {},
    };
    for (const [name, annotations] of Object.entries(namespaces)) {
      const res = await s.server.request({
        method: "POST",
        path: "/api/v1/namespaces",
        body: { apiVersion: "v1", kind: "Namespace", metadata: { name, annotations } },
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function annotate(namespace: string, annotations: Record<string, string>): Promise<void> {
    const res = await s.server.request({
      method: "PATCH",
      path: `/api/v1/namespaces/${namespace}`,
      headers: { "content-type": "application/merge-patch+json" },
      body: JSON.stringify({ metadata: { annotations } }),
    });
    expect(res.status).toBe(200);
  }

  async function post(namespace: string, metadata: object, spec: object = {}) {
    const res = await s.server.request({
      method: "POST",
      path: `/api/v1/namespaces/${namespace}/pods`,
      body: { apiVersion: "v1", kind: "Pod", metadata, spec: { containers: [{ name: "c", image: "nginx" }], ...spec } },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & { spec?: PodSpec } };
  }

  it("merges the cluster defaults and refuses what leaves the whitelist (kubectl)", async () => {
    const run = (name: string, spec: object) => [
      "run",
      "-n",
      "e-a",
      name,
      "--image=nginx",
      `--overrides=${JSON.stringify({ spec })}`,
    ];
    await s.kubectl(...run("q1", { tolerations: [{ key: "node.kubernetes.io/not-ready", operator: "Exists" }] }));
    const q1 = JSON.parse(await s.kubectl("get", "pod", "-n", "e-a", "q1", "-o", "json")) as { spec: PodSpec };
    expect(q1.spec.tolerations).toEqual([
      { key: "node.kubernetes.io/not-ready", operator: "Exists" },
      unreachable240,
      { key: "cluster-default", operator: "Exists", effect: "NoSchedule" },
    ]);
    expect(q1.spec.nodeSelector).toEqual({ env: "dev" });
    expect(q1.spec.containers[0]?.imagePullPolicy).toBe("Always");
    expect(await s.kubectlError(...run("q2", { tolerations: [{ key: "bad", operator: "Exists" }] }))).toBe(
      "Error from server: pod tolerations (possibly merged with namespace default tolerations) conflict with its cluster whitelist\n",
    );
    expect(await s.kubectlError(...run("q3", { nodeSelector: { env: "prod" } }))).toBe(
      'Error from server (Forbidden): pods "q3" is forbidden: pod node label selector conflicts with its namespace node label selector\n',
    );
  });

  it("checks a namespace's whitelist from the configuration", async () => {
    expect(await post("e-wl", { name: "w1" }, { tolerations: [{ key: "ok", operator: "Exists" }] })).toEqual({
      status: 403,
      body: forbiddenStatus(
        'pods "w1" is forbidden: pod node label selector labels conflict with its namespace whitelist',
        "w1",
      ),
    });
    expect(await post("e-wl", { name: "w2" }, { nodeSelector: { env: "prod" } })).toEqual({
      status: 403,
      body: forbiddenStatus(
        'pods "w2" is forbidden: pod node label selector conflicts with its namespace node label selector',
        "w2",
      ),
    });
    // Before its name is generated, the pod has none: kube's refusal names no pod.
    expect(await post("e-a", { generateName: "g-" }, { nodeSelector: { env: "x" } })).toEqual({
      status: 403,
      body: forbiddenStatus(
        "pods is forbidden: pod node label selector conflicts with its namespace node label selector",
      ),
    });
  });

  it("takes the namespace's annotations over the configuration", async () => {
    const b1 = await post("e-b", { name: "b1" }, { tolerations: [{ key: "x", operator: "Equal", value: "v" }] });
    expect(b1.status).toBe(201);
    expect(b1.body.spec?.nodeSelector).toEqual({ zone: "z1" });
    expect(b1.body.spec?.tolerations).toEqual([
      { key: "x", operator: "Equal", value: "v" },
      notReady120,
      unreachable240,
      { key: "ns-default", operator: "Exists", effect: "NoSchedule" },
    ]);
    // Not BestEffort: memory pressure tolerated; extended resources tolerated, sorted, after the others.
    const extended = { "example.com/gpu": "1", "foo.io/a": "2" };
    const q4 = await post(
      "e-b",
      { name: "q4" },
      {
        containers: [
          { name: "q4", image: "nginx", resources: { requests: { cpu: "1", ...extended }, limits: extended } },
        ],
        initContainers: [
          { name: "i", image: "busybox", resources: { requests: { "aaa.io/z": "1" }, limits: { "aaa.io/z": "1" } } },
        ],
        tolerations: [{ key: "foo.io/a", operator: "Exists", effect: "NoSchedule" }],
      },
    );
    expect(q4.status).toBe(201);
    expect(q4.body.spec?.tolerations).toEqual([
      { key: "foo.io/a", operator: "Exists", effect: "NoSchedule" },
      notReady120,
      unreachable240,
      { key: "ns-default", operator: "Exists", effect: "NoSchedule" },
      { key: "node.kubernetes.io/memory-pressure", operator: "Exists", effect: "NoSchedule" },
      { key: "aaa.io/z", operator: "Exists", effect: "NoSchedule" },
      { key: "example.com/gpu", operator: "Exists", effect: "NoSchedule" },
    ]);
  });

  it("answers bad annotations with kube's plain errors", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ "scheduler.alpha.kubernetes.io/node-selector": "zone=z1,zone in (a)" }, "invalid selector: [zone in (a)]"],
      [{ "scheduler.alpha.kubernetes.io/node-selector": "a=b=c" }, "invalid selector: [a b c]"],
      [
        { "scheduler.alpha.kubernetes.io/node-selector": "Bad Key=v" },
        `<nil>: Invalid value: "Bad Key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
      [
        { "scheduler.alpha.kubernetes.io/node-selector": "k=bad value!" },
        `[k]: Invalid value: "bad value!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      ],
      [
        {
          "scheduler.alpha.kubernetes.io/node-selector": "zone=z1",
          "scheduler.alpha.kubernetes.io/defaultTolerations": "notjson",
        },
        "invalid character 'o' in literal null (expecting 'u')",
      ],
      [
        { "scheduler.alpha.kubernetes.io/defaultTolerations": '[{"key":"k",}]' },
        "invalid character '}' looking for beginning of object key string",
      ],
      [
        { "scheduler.alpha.kubernetes.io/defaultTolerations": '{"key":"k"}' },
        "json: cannot unmarshal object into Go value of type []v1.Toleration",
      ],
      [
        {
          "scheduler.alpha.kubernetes.io/node-selector": "",
          "scheduler.alpha.kubernetes.io/defaultTolerations":
            '[{"key":"k","operator":"Exists","tolerationSeconds":"x"}]',
        },
        "json: cannot unmarshal string into Go struct field Toleration.tolerationSeconds of type int64",
      ],
    ];
    for (const [annotations, message] of cases) {
      await annotate("e-c", annotations);
      expect(await post("e-c", { name: "c1" })).toEqual({ status: 500, body: plainFailure(message) });
    }
    // Empty annotations: no node selector, no default tolerations, no whitelist; field names in any case.
    await annotate("e-c", {
      "scheduler.alpha.kubernetes.io/defaultTolerations": "",
      "scheduler.alpha.kubernetes.io/tolerationsWhitelist": "",
    });
    const c5 = await post("e-c", { name: "c5" }, { tolerations: [{ key: "zzz", operator: "Exists" }] });
    expect(c5.body.spec?.tolerations).toEqual([{ key: "zzz", operator: "Exists" }, notReady120, unreachable240]);
    expect(c5.body.spec?.nodeSelector).toBeUndefined();
    await annotate("e-c", {
      "scheduler.alpha.kubernetes.io/node-selector": null as unknown as string,
      "scheduler.alpha.kubernetes.io/tolerationsWhitelist": null as unknown as string,
      "scheduler.alpha.kubernetes.io/defaultTolerations": '[{"Key":"ok","Operator":"Exists"}]',
    });
    const d2 = await post(
      "e-c",
      { name: "d2" },
      { volumes: [{ name: "v", image: { reference: "busybox", pullPolicy: "Never" } }] },
    );
    expect(d2.status).toBe(201);
    expect(d2.body.spec?.nodeSelector).toEqual({ env: "dev" });
    expect(d2.body.spec?.tolerations).toEqual([notReady120, unreachable240, { key: "ok", operator: "Exists" }]);
    expect(d2.body.spec?.volumes).toEqual([{ name: "v", image: { reference: "busybox", pullPolicy: "Always" } }]);
  });

  it("pulls always on updates that bring a new image", async () => {
    const res = await s.server.request({
      method: "PATCH",
      path: "/api/v1/namespaces/e-a/pods/q1",
      headers: { "content-type": "application/json-patch+json" },
      body: JSON.stringify([
        { op: "replace", path: "/spec/containers/0/image", value: "nginx:2" },
        { op: "replace", path: "/spec/containers/0/imagePullPolicy", value: "Never" },
      ]),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { spec: { containers: { imagePullPolicy: string }[] } };
    expect(body.spec.containers[0]?.imagePullPolicy).toBe("Always");
  });

  it("limits required anti-affinity to the hostname topology", async () => {
    const affinity = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: "kubernetes.io/hostname", labelSelector: {} },
          { topologyKey: "zone", labelSelector: {} },
        ],
      },
    };
    const refused = await post("e-a", { generateName: "g-" }, { affinity });
    expect(refused.status).toBe(403);
    const name = (refused.body.details as { name: string }).name;
    // Validating admission sees the generated name.
    expect(name).toMatch(/^g-[a-z0-9]{5}$/);
    expect(refused.body).toEqual(
      forbiddenStatus(
        `pods "${name}" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey zone but only key kubernetes.io/hostname is allowed`,
        name,
      ),
    );
  });
});
