// kubectl's typed commands send their objects as application/vnd.kubernetes.protobuf; kapi decodes them
// into the same objects a JSON body would give.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, type KubectlSession, startKubectlSession } from "./kubectl-session.js";

/** What the tests read of the objects. */
interface Got {
  kind: string;
  apiVersion: string;
  metadata: Record<string, unknown>;
  data?: Record<string, string>;
  spec?: Record<string, unknown> & { template: { spec: Record<string, unknown> } };
}

describe.skipIf(!haveKubectl)("kubectl create with protobuf bodies", () => {
  let session: KubectlSession;

  const kubectl = (...args: string[]) => session.kubectlWith({}, ...args);
  const getJson = async (...args: string[]) => JSON.parse((await kubectl("get", ...args, "-o", "json")).stdout) as Got;

  beforeAll(async () => {
    session = await startKubectlSession();
  });
  afterAll(async () => session?.close());

  it("creates a namespace, sending protobuf", async () => {
    const { stdout, stderr } = await kubectl("create", "namespace", "e2e-proto", "-v=8");
    expect(stdout).toBe("namespace/e2e-proto created\n");
    expect(stderr).toContain("Content-Type: application/vnd.kubernetes.protobuf");
    const ns = await getJson("namespace", "e2e-proto");
    expect(ns).toMatchObject({ kind: "Namespace", apiVersion: "v1", metadata: { name: "e2e-proto" } });
  });

  it("creates a configmap from literals", async () => {
    expect((await kubectl("create", "configmap", "c", "--from-literal=a=b", "-n", "e2e-proto")).stdout).toBe(
      "configmap/c created\n",
    );
    const cm = await getJson("configmap", "c", "-n", "e2e-proto");
    expect(cm.data).toEqual({ a: "b" });
    expect(cm.metadata).toMatchObject({ name: "c", namespace: "e2e-proto" });
  });

  it("creates a deployment: replicas 0 is kept, the zero values Go writes are defaulted", async () => {
    const created = await kubectl(
      "create",
      "deployment",
      "web",
      "--image=nginx:1.27",
      "--replicas=0",
      "-n",
      "e2e-proto",
    );
    expect(created.stdout).toBe("deployment.apps/web created\n");
    const spec = (await getJson("deployment", "web", "-n", "e2e-proto")).spec;
    expect(spec).toMatchObject({
      replicas: 0,
      revisionHistoryLimit: 10,
      selector: { matchLabels: { app: "web" } },
      strategy: { type: "RollingUpdate" },
    });
    expect(spec?.template.spec).toMatchObject({ restartPolicy: "Always", dnsPolicy: "ClusterFirst" });
    expect(spec?.template.spec.containers).toEqual([
      {
        name: "nginx",
        image: "nginx:1.27",
        imagePullPolicy: "IfNotPresent",
        resources: {},
        terminationMessagePath: "/dev/termination-log",
        terminationMessagePolicy: "File",
      },
    ]);
    expect(spec?.paused).toBeUndefined();
    expect(spec?.minReadySeconds).toBeUndefined();
  });
});
