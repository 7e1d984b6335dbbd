// kubectl's write paths that go through patches and field ownership: server-side apply with conflicts and
// forced takeover, client-side apply of a changed manifest (a strategic merge patch), edit, patch of each
// type, scale and label, and managedFields as `--show-managed-fields` prints them.
import { chmodSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { haveKubectl, type KubectlSession, startKubectlSession } from "./kubectl-session.js";

interface ManagedFieldsEntry {
  manager: string;
  operation: string;
  apiVersion: string;
  subresource?: string;
  fieldsV1: Record<string, unknown>;
}

interface Deployment {
  metadata: { resourceVersion: string; managedFields?: ManagedFieldsEntry[]; annotations?: Record<string, string> };
  spec: {
    replicas: number;
    template: {
      spec: {
        containers: {
          name: string;
          image: string;
          env?: { name: string; value: string }[];
          ports?: { containerPort: number }[];
        }[];
      };
    };
  };
}

const deployment = (name: string, replicas: number, image = "nginx:1.27") => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: e2e
spec:
  replicas: ${replicas}
  selector:
    matchLabels: { app: ${name} }
  template:
    metadata:
      labels: { app: ${name} }
    spec:
      containers:
        - name: web
          image: ${image}
`;

describe.skipIf(!haveKubectl)("kubectl apply, edit and patch", () => {
  let s: KubectlSession;
  const getDeployment = async (name: string): Promise<Deployment> =>
    JSON.parse(await s.kubectl("get", "deployment", name, "-n", "e2e", "-o", "json", "--show-managed-fields"));
  const managers = (d: Deployment) =>
    (d.metadata.managedFields ?? []).map(
      (e) => `${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ""}`,
    );
  const entry = (d: Deployment, manager: string) => d.metadata.managedFields?.find((e) => e.manager === manager);

  beforeAll(async () => {
    // No deployment controller: its status writes would add managers and resourceVersions the checks pin.
    s = await startKubectlSession({ controllers: { deployments: false } });
    await s.kubectl("create", "namespace", "e2e");
  });
  afterAll(async () => s.close());

  it("applies server-side, again without change, then conflicts with a second manager until forced", async () => {
    const first = s.file("ssa.yaml", deployment("ssa", 2));
    expect(await s.kubectl("apply", "--server-side", "-f", first)).toBe("deployment.apps/ssa serverside-applied\n");
    const created = await getDeployment("ssa");
    expect(managers(created)).toEqual(["kubectl/Apply"]);
    const fields = entry(created, "kubectl")?.fieldsV1 as { "f:spec": Record<string, unknown> };
    expect(fields["f:spec"]["f:replicas"]).toEqual({});
    expect(entry(created, "kubectl")?.apiVersion).toBe("apps/v1");

    await s.kubectl("apply", "--server-side", "-f", first);
    expect((await getDeployment("ssa")).metadata.resourceVersion).toBe(created.metadata.resourceVersion);

    const second = s.file("ssa-5.yaml", deployment("ssa", 5));
    const error = await s.kubectlError("apply", "--server-side", "--field-manager=scaler", "-f", second);
    expect(error).toContain('Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas');
    expect((await getDeployment("ssa")).spec.replicas).toBe(2);

    await s.kubectl("apply", "--server-side", "--field-manager=scaler", "--force-conflicts", "-f", second);
    const forced = await getDeployment("ssa");
    expect(forced.spec.replicas).toBe(5);
    const kubectlFields = entry(forced, "kubectl")?.fieldsV1 as { "f:spec": Record<string, unknown> };
    expect(kubectlFields["f:spec"]["f:replicas"]).toBeUndefined();
    expect(entry(forced, "scaler")?.operation).toBe("Apply");
  });

  it("applies a changed manifest client-side: containers and env merged by name, a removed port removed", async () => {
    const manifest = (image: string, env: string, ports: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: csa
  namespace: e2e
spec:
  replicas: 1
  selector:
    matchLabels: { app: csa }
  template:
    metadata:
      labels: { app: csa }
    spec:
      containers:
        - name: web
          image: ${image}
          env:
${env}
          ports:
${ports}
        - name: sidecar
          image: busybox:1.36
`;
    const v1 = manifest(
      "nginx:1.26",
      "            - { name: A, value: a }",
      "            - { containerPort: 80 }\n            - { containerPort: 443 }",
    );
    expect(await s.kubectl("apply", "-f", s.file("csa-1.yaml", v1))).toBe("deployment.apps/csa created\n");
    // Someone else adds an env var the manifest never had: a three-way merge keeps it.
    await s.kubectl("set", "env", "deployment/csa", "-n", "e2e", "-c", "web", "EXTRA=x");
    const v2 = manifest(
      "nginx:1.27",
      "            - { name: A, value: a }\n            - { name: B, value: b }",
      "            - { containerPort: 80 }",
    );
    expect(await s.kubectl("apply", "-f", s.file("csa-2.yaml", v2))).toBe("deployment.apps/csa configured\n");
    const d = await getDeployment("csa");
    const [web, sidecar] = d.spec.template.spec.containers;
    expect(web?.image).toBe("nginx:1.27");
    expect(web?.env?.map((e) => e.name).sort()).toEqual(["A", "B", "EXTRA"]);
    expect(web?.ports?.map((p) => p.containerPort)).toEqual([80]);
    expect(sidecar?.name).toBe("sidecar");
    expect(managers(d)).toEqual(expect.arrayContaining(["kubectl-client-side-apply/Update", "kubectl-set/Update"]));
  });

  it("edits with EDITOR set to a script", async () => {
    await s.kubectl("apply", "--server-side", "-f", s.file("ed.yaml", deployment("ed", 1)));
    const editor = s.file("editor.sh", "#!/bin/sh\nsed -i 's/replicas: 1/replicas: 4/' \"$1\"\n");
    chmodSync(editor, 0o755);
    const { stdout } = await s.kubectlWith({ EDITOR: editor }, "edit", "deployment/ed", "-n", "e2e");
    expect(stdout).toBe("deployment.apps/ed edited\n");
    const d = await getDeployment("ed");
    expect(d.spec.replicas).toBe(4);
    expect(managers(d)).toContain("kubectl-edit/Update");
  });

  it("patches with each patch type, scales and labels", async () => {
    await s.kubectl("apply", "--server-side", "-f", s.file("p.yaml", deployment("p", 1)));
    await s.kubectl(
      "patch",
      "deployment/p",
      "-n",
      "e2e",
      "--type",
      "json",
      "-p",
      '[{"op":"replace","path":"/spec/replicas","value":2},{"op":"test","path":"/spec/replicas","value":2}]',
    );
    expect((await getDeployment("p")).spec.replicas).toBe(2);
    const failed = await s.kubectlError(
      "patch",
      "deployment/p",
      "-n",
      "e2e",
      "--type",
      "json",
      "-p",
      '[{"op":"test","path":"/spec/replicas","value":9}]',
    );
    expect(failed).toContain("The request is invalid: the server rejected our request due to an error in our request");
    await s.kubectl("patch", "deployment/p", "-n", "e2e", "--type", "merge", "-p", '{"spec":{"replicas":3}}');
    expect((await getDeployment("p")).spec.replicas).toBe(3);
    await s.kubectl(
      "patch",
      "deployment/p",
      "-n",
      "e2e",
      "--type",
      "strategic",
      "-p",
      '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.28"}]}}}}',
    );
    const patched = await getDeployment("p");
    expect(patched.spec.template.spec.containers.map((c) => c.image)).toEqual(["nginx:1.28"]);
    await s.kubectl("scale", "deployment/p", "-n", "e2e", "--replicas=6");
    await s.kubectl("label", "deployment/p", "-n", "e2e", "tier=front");
    const d = await getDeployment("p");
    expect(d.spec.replicas).toBe(6);
    expect(managers(d)).toEqual(
      expect.arrayContaining(["kubectl/Apply", "kubectl-patch/Update", "kubectl/Update/scale", "kubectl-label/Update"]),
    );
    const yaml = await s.kubectl("get", "deployment/p", "-n", "e2e", "-o", "yaml", "--show-managed-fields");
    const fromYaml = parse(yaml) as Deployment;
    expect(fromYaml.metadata.managedFields?.length).toBe(d.metadata.managedFields?.length);
    expect(yaml).toContain("fieldsType: FieldsV1");
  });
});
