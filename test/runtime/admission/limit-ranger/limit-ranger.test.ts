// LimitRanger, driven by kubectl for pods and by raw HTTP for claims and the resize subresource. Every
// expected answer was recorded from a reference kube-apiserver v1.36.2 (default admission plugins) given the
// same objects; generated name suffixes are matched by pattern.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, type KubectlSession, startKubectlSession } from "../../../e2e/kubectl-session.js";

const containerLimits = `apiVersion: v1
kind: LimitRange
metadata: {name: lr, namespace: b-lr1}
spec:
  limits:
  - type: Container
    max: {cpu: "1000m", memory: 1Gi}
    min: {cpu: 100m, memory: 100Mi}
    default: {cpu: 500m, memory: 512Mi}
    defaultRequest: {cpu: 250m, memory: 256Mi}
    maxLimitRequestRatio: {cpu: "2"}
`;

const defaultedPod = `apiVersion: v1
kind: Pod
metadata: {name: p1, namespace: b-lr1}
spec:
  initContainers:
  - {name: i, image: busybox}
  containers:
  - {name: c, image: busybox}
  - name: d
    image: busybox
    resources: {limits: {cpu: 400m}}
`;

const oversizedPod = (name: string) => `apiVersion: v1
kind: Pod
metadata: {${name}, namespace: b-lr1}
spec:
  containers:
  - name: c
    image: busybox
    resources: {limits: {cpu: "2", memory: 2Gi}, requests: {cpu: 500m, memory: 50Mi}}
  - name: d
    image: busybox
    resources: {limits: {cpu: "2", memory: 2Gi}, requests: {cpu: 500m, memory: 50Mi}}
`;

const podAndClaimLimits = `apiVersion: v1
kind: LimitRange
metadata: {name: lr2, namespace: b-lr2}
spec:
  limits:
  - type: Pod
    max: {cpu: "1", memory: 1Gi}
    min: {cpu: 100m}
    maxLimitRequestRatio: {memory: "3"}
  - type: PersistentVolumeClaim
    max: {storage: 2Gi}
    min: {storage: 1Gi}
`;

const pod = (name: string, spec: string) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: b-lr2}
spec:
${spec}`;

describe.runIf(haveKubectl)("LimitRanger", () => {
  let s: KubectlSession;

  const create = (name: string, text: string) => s.kubectl("create", "-f", s.file(name, text), "-o", "json");
  const refusal = async (name: string, text: string) =>
    (await s.kubectlError("create", "-f", s.file(name, text))).trim();

  async function raw(method: string, path: string, body: unknown, contentType = "application/json") {
    const response = await s.server.request({
      method,
      path,
      headers: { "content-type": contentType },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { message?: string; details?: unknown };
    return { code: response.status, message: json.message, details: json.details };
  }

  beforeAll(async () => {
    s = await startKubectlSession();
    await s.kubectl("create", "namespace", "b-lr1");
    await s.kubectl("create", "namespace", "b-lr2");
    await create("lr.yaml", containerLimits);
    await create("lr2.yaml", podAndClaimLimits);
  }, 60_000);
  afterAll(() => s?.close());

  it("merges the Container defaults into containers and init containers and says so in the annotation", async () => {
    await create("p1.yaml", defaultedPod);
    const stored = JSON.parse(await s.kubectl("get", "pod", "-n", "b-lr1", "p1", "-o", "json"));
    const resources = (list: { name: string; resources: unknown }[]) =>
      list.map(({ name, resources }) => ({ name, resources }));
    expect({
      annotations: stored.metadata.annotations,
      containers: resources(stored.spec.containers),
      initContainers: resources(stored.spec.initContainers),
    }).toEqual({
      annotations: {
        "kubernetes.io/limit-ranger":
          "LimitRanger plugin set: cpu, memory request for container c; cpu, memory limit for container c; " +
          "memory request for container d; memory limit for container d; " +
          "cpu, memory request for init container i; cpu, memory limit for init container i",
      },
      containers: [
        {
          name: "c",
          resources: { limits: { cpu: "500m", memory: "512Mi" }, requests: { cpu: "250m", memory: "256Mi" } },
        },
        // The pod's own defaulting copied the cpu limit into the request before admission.
        {
          name: "d",
          resources: { limits: { cpu: "400m", memory: "512Mi" }, requests: { cpu: "400m", memory: "256Mi" } },
        },
      ],
      initContainers: [
        {
          name: "i",
          resources: { limits: { cpu: "500m", memory: "512Mi" }, requests: { cpu: "250m", memory: "256Mi" } },
        },
      ],
    });
  });

  it("refuses a pod over the Container bounds with every violation once, in kube's words", async () => {
    expect(await refusal("p2.yaml", oversizedPod("name: p2"))).toBe(
      'Error from server (Forbidden): error when creating "' +
        `${s.dir}/p2.yaml` +
        '": pods "p2" is forbidden: [minimum memory usage per Container is 100Mi, but request is 50Mi, ' +
        "maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi, " +
        "but limit is 2Gi, cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000]",
    );
  });

  it("reports the ratio a defaulted container ends up with", async () => {
    const spec = "  containers:\n  - {name: c, image: busybox, resources: {requests: {cpu: 200m}}}\n";
    const text = `apiVersion: v1\nkind: Pod\nmetadata: {name: p9, namespace: b-lr1}\nspec:\n${spec}`;
    expect(await refusal("p9.yaml", text)).toContain(
      'pods "p9" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 2.500000',
    );
  });

  it("sums containers, sidecars and init containers for a Pod limit", async () => {
    await create(
      "p3.yaml",
      pod(
        "p3",
        `  initContainers:
  - {name: i1, image: busybox, resources: {limits: {cpu: 800m, memory: 100Mi}}}
  - {name: s1, image: busybox, restartPolicy: Always, resources: {limits: {cpu: 300m, memory: 200Mi}}}
  containers:
  - {name: c, image: busybox, resources: {limits: {cpu: 500m, memory: 600Mi}, requests: {cpu: 200m, memory: 100Mi}}}
`,
      ),
    );
    expect(
      await refusal(
        "p6.yaml",
        pod(
          "p6",
          `  initContainers:
  - {name: i1, image: busybox, resources: {limits: {cpu: 200m, memory: 100Mi}}}
  - {name: s1, image: busybox, restartPolicy: Always, resources: {limits: {cpu: 600m, memory: 200Mi}}}
  containers:
  - {name: c, image: busybox, resources: {limits: {cpu: 500m, memory: 600Mi}, requests: {cpu: 200m, memory: 100Mi}}}
`,
        ),
      ),
    ).toContain('pods "p6" is forbidden: maximum cpu usage per Pod is 1, but limit is 1100m');
  });

  it("names what a pod without resources lacks for a Pod limit", async () => {
    expect(await refusal("p4.yaml", pod("p4", "  containers:\n  - {name: c, image: busybox}\n"))).toContain(
      'pods "p4" is forbidden: [minimum cpu usage per Pod is 100m.  No request is specified, ' +
        "maximum cpu usage per Pod is 1.  No limit is specified, maximum memory usage per Pod is 1Gi.  " +
        "No limit is specified, memory max limit to request ratio per Pod is 3, but no request is specified or request is 0]",
    );
  });

  it("takes pod-level resources over the containers' sum", async () => {
    const podLevel = (name: string, resources: string) =>
      pod(name, `  resources: ${resources}\n  containers:\n  - {name: c, image: busybox}\n`);
    expect(
      await refusal(
        "p7.yaml",
        podLevel("p7", "{limits: {cpu: '2', memory: 300Mi}, requests: {cpu: 200m, memory: 50Mi}}"),
      ),
    ).toContain(
      'pods "p7" is forbidden: [maximum cpu usage per Pod is 1, but limit is 2, ' +
        "memory max limit to request ratio per Pod is 3, but provided ratio is 6.000000]",
    );
    const created = JSON.parse(
      await create(
        "p8.yaml",
        podLevel("p8", "{limits: {cpu: 500m, memory: 300Mi}, requests: {cpu: 200m, memory: 150Mi}}"),
      ),
    );
    expect(created.metadata.annotations).toBeUndefined();
  });

  it("bounds a claim's storage request (raw HTTP)", async () => {
    const claim = (name: string, resources: unknown) => ({
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name },
      spec: { accessModes: ["ReadWriteOnce"], resources },
    });
    const path = "/api/v1/namespaces/b-lr2/persistentvolumeclaims";
    expect(await raw("POST", path, claim("big", { requests: { storage: "3Gi" } }))).toEqual({
      code: 403,
      message:
        'persistentvolumeclaims "big" is forbidden: maximum storage usage per PersistentVolumeClaim is 2Gi, but request is 3Gi',
      details: { name: "big", kind: "persistentvolumeclaims" },
    });
    // The claim's limits are not read: only the request is bounded.
    expect(
      (await raw("POST", path, claim("small", { requests: { storage: "500Mi" }, limits: { storage: "5Gi" } }))).message,
    ).toBe(
      'persistentvolumeclaims "small" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi',
    );
    expect((await raw("POST", path, claim("ok", { requests: { storage: "1536Mi" } }))).code).toBe(201);
    // A second LimitRange refuses what the first admits; its message comes alone.
    await create(
      "lr3.yaml",
      "apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr3, namespace: b-lr2}\nspec:\n  limits:\n  - type: PersistentVolumeClaim\n    min: {storage: 1500Mi}\n",
    );
    expect((await raw("POST", path, claim("mid", { requests: { storage: "1200Mi" } }))).message).toBe(
      'persistentvolumeclaims "mid" is forbidden: minimum storage usage per PersistentVolumeClaim is 1500Mi, but request is 1200Mi',
    );
  });

  it("checks resizes but not other pod updates, and names a generated pod by its final name", async () => {
    const resize = await raw(
      "PATCH",
      "/api/v1/namespaces/b-lr1/pods/p1/resize",
      { spec: { containers: [{ name: "c", resources: { limits: { cpu: "2" } } }] } },
      "application/strategic-merge-patch+json",
    );
    expect(resize).toEqual({
      code: 403,
      message:
        'pods "p1" is forbidden: [maximum cpu usage per Container is 1, but limit is 2, ' +
        "cpu max limit to request ratio per Container is 2, but provided ratio is 8.000000]",
      details: { name: "p1", kind: "pods" },
    });
    await s.kubectl(
      "patch",
      "limitrange",
      "lr",
      "-n",
      "b-lr1",
      "--type=merge",
      "-p",
      '{"spec":{"limits":[{"type":"Container","max":{"cpu":"300m"}}]}}',
    );
    expect((await s.kubectl("label", "pod", "p1", "-n", "b-lr1", "x=z", "--overwrite")).trim()).toBe("pod/p1 labeled");
    expect(await refusal("p2g.yaml", oversizedPod("generateName: p2-"))).toMatch(
      /pods "p2-[a-z0-9]{5}" is forbidden: maximum cpu usage per Container is 300m, but limit is 2$/,
    );
  });
});
