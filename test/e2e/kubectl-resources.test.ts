// kubectl driving resources on a started server: create, get in each output format, label, annotate,
// scale, watch, delete with cascading and waiting, and field-validation warnings.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, type KubectlSession, kubectlPath, startKubectlSession } from "./kubectl-session.js";

describe.skipIf(!haveKubectl)("kubectl on resources", () => {
  let session: KubectlSession;
  let dir: string;
  const args = (rest: string[]) => session.args(...rest);
  const kubectl = (...rest: string[]) => session.kubectl(...rest);
  const kubectlFull = (...rest: string[]) => session.kubectlWith({}, ...rest);
  const kubectlError = (...rest: string[]) => session.kubectlError(...rest);
  const manifest = (name: string, text: string) => session.file(name, text);

  beforeAll(async () => {
    session = await startKubectlSession();
    dir = session.dir;
    await kubectl("create", "namespace", "e2e");
  });
  afterAll(async () => session?.close());

  it("creates a configmap and reads it back as JSON and YAML", async () => {
    expect(await kubectl("create", "configmap", "cfg", "-n", "e2e", "--from-literal=k=v")).toBe(
      "configmap/cfg created\n",
    );
    const json = JSON.parse(await kubectl("get", "configmap", "cfg", "-n", "e2e", "-o", "json")) as {
      data: Record<string, string>;
      metadata: { uid: string; resourceVersion: string };
    };
    expect(json.data).toEqual({ k: "v" });
    expect(json.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    const yaml = await kubectl("get", "configmap", "cfg", "-n", "e2e", "-o", "yaml");
    expect(yaml).toContain("kind: ConfigMap");
    expect(yaml).toContain("  k: v");
  });

  it("lists with the server's table, wide too", async () => {
    await kubectl("create", "deployment", "web", "-n", "e2e", "--image=nginx:1.27", "--replicas=2");
    const table = await kubectl("get", "deployments", "-n", "e2e");
    expect(table.split("\n")[0]).toMatch(/^NAME\s+/);
    expect(table).toMatch(/\nweb\s+/);
    const wide = await kubectl("get", "deployments", "-n", "e2e", "-o", "wide");
    expect(wide).toMatch(/\nweb\s+/);
    const names = await kubectl("get", "configmaps,deployments", "-n", "e2e", "-o", "name");
    expect(names.split("\n")).toEqual(expect.arrayContaining(["configmap/cfg", "deployment.apps/web"]));
  });

  it("labels, annotates and selects", async () => {
    await kubectl("label", "configmap", "cfg", "-n", "e2e", "tier=web");
    await kubectl("annotate", "configmap", "cfg", "-n", "e2e", "note=hello");
    expect(await kubectl("get", "configmaps", "-n", "e2e", "-l", "tier=web", "-o", "name")).toBe("configmap/cfg\n");
    expect(await kubectl("get", "configmaps", "-n", "e2e", "-l", "tier!=web", "-o", "name")).not.toContain(
      "configmap/cfg",
    );
    const annotations = await kubectl(
      "get",
      "configmap",
      "cfg",
      "-n",
      "e2e",
      "-o",
      "jsonpath={.metadata.annotations.note}",
    );
    expect(annotations).toBe("hello");
  });

  it("scales a deployment through its scale subresource", async () => {
    expect(await kubectl("scale", "deployment", "web", "-n", "e2e", "--replicas=3")).toBe(
      "deployment.apps/web scaled\n",
    );
    expect(
      await kubectl("get", "deployment", "web", "-n", "e2e", "-o", "jsonpath={.spec.replicas} {.metadata.generation}"),
    ).toBe("3 2");
  });

  it("watches changes with get -w", async () => {
    const watcher = spawn(kubectlPath, args(["get", "configmaps", "-n", "e2e", "-w", "--output-watch-events"]));
    let out = "";
    const seen = new Promise<void>((resolve, reject) => {
      watcher.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (/ADDED\s+watched/.test(out)) resolve();
      });
      watcher.on("exit", () => reject(new Error(`kubectl get -w exited: ${out}`)));
    });
    // The initial listing arrives first; a create after it must show up as an event.
    await new Promise<void>((resolve) => watcher.stdout.once("data", () => resolve()));
    await kubectl("create", "configmap", "watched", "-n", "e2e");
    await seen;
    watcher.kill();
    expect(out).toMatch(/ADDED\s+cfg/);
  });

  it("warns about unknown fields, or refuses them when strict", async () => {
    const path = manifest(
      "unknown.yaml",
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: loose\n  namespace: e2e\nbogus: 1\ndata:\n  a: b\n",
    );
    const { stderr } = await kubectlFull("create", "-f", path, "--validate=warn");
    expect(stderr).toContain('unknown field "bogus"');
    const strictPath = manifest(
      "strict.yaml",
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: strict\n  namespace: e2e\nbogus: 1\n",
    );
    expect(await kubectlError("create", "-f", strictPath)).toContain('unknown field "bogus"');
  });

  it("refuses an invalid object with the server's message", async () => {
    const path = manifest(
      "invalid.yaml",
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Not_Valid\n  namespace: e2e\n",
    );
    expect(await kubectlError("create", "-f", path)).toContain(
      'ConfigMap "Not_Valid" is invalid: metadata.name: Invalid value: "Not_Valid"',
    );
  });

  it("deletes with cascading and waits for deletion", async () => {
    const owner = JSON.parse(await kubectl("get", "deployment", "web", "-n", "e2e", "-o", "json")) as {
      metadata: { uid: string };
    };
    manifest(
      "dependent.yaml",
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dependent\n  namespace: e2e\n  ownerReferences:\n  - apiVersion: apps/v1\n    kind: Deployment\n    name: web\n    uid: ${owner.metadata.uid}\n`,
    );
    await kubectl("create", "-f", join(dir, "dependent.yaml"));
    expect(await kubectl("delete", "deployment", "web", "-n", "e2e", "--cascade=foreground")).toBe(
      'deployment.apps "web" deleted\n',
    );
    await kubectl("wait", "--for=delete", "configmap/dependent", "-n", "e2e", "--timeout=20s");
    expect(await kubectlError("get", "deployment", "web", "-n", "e2e")).toContain('deployments.apps "web" not found');
  });

  it("deletes a namespace with its contents", async () => {
    await kubectl("create", "namespace", "doomed");
    await kubectl("create", "configmap", "inside", "-n", "doomed");
    expect(await kubectl("delete", "namespace", "doomed", "--timeout=30s")).toBe('namespace "doomed" deleted\n');
    expect(await kubectlError("get", "namespace", "doomed")).toContain('namespaces "doomed" not found');
  });

  it("has a default service account and the root CA in each namespace", async () => {
    await kubectl("wait", "--for=create", "serviceaccount/default", "-n", "e2e", "--timeout=20s");
    await kubectl("wait", "--for=create", "configmap/kube-root-ca.crt", "-n", "e2e", "--timeout=20s");
    const ca = await kubectl("get", "configmap", "kube-root-ca.crt", "-n", "e2e", "-o", "jsonpath={.data.ca\\.crt}");
    expect(ca).toContain("BEGIN CERTIFICATE");
  });
});
