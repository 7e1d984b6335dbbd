// kubectl's typed commands (create, describe, rollout history) ask for
// `application/vnd.kubernetes.protobuf,application/json` and get protobuf answers, which client-go decodes
// with kube's own generated code: what kubectl prints is the proof that kapi's bytes are kube's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, type KubectlSession, startKubectlSession } from "./kubectl-session.js";

/** kubectl -v=8 logs the response headers after the request's; the protobuf type must be among them. */
const protobufResponse = /Response Headers:[\s\S]*Content-Type: application\/vnd\.kubernetes\.protobuf/;

describe.skipIf(!haveKubectl)("kubectl reading protobuf responses", () => {
  let s: KubectlSession;
  beforeAll(async () => {
    s = await startKubectlSession();
  });
  afterAll(() => s.close());

  it("creates a namespace and a configmap, asking for protobuf and reading it", async () => {
    const ns = await s.kubectlWith({}, "create", "namespace", "pb", "-v=8");
    expect(ns.stdout).toBe("namespace/pb created\n");
    expect(ns.stderr).toContain("Accept: application/vnd.kubernetes.protobuf,application/json");
    expect(ns.stderr).toMatch(protobufResponse);
    const cm = await s.kubectlWith({}, "create", "configmap", "c", "--from-literal=a=b", "-n", "pb", "-v=8");
    expect(cm.stdout).toBe("configmap/c created\n");
    expect(cm.stderr).toMatch(protobufResponse);
  });

  it("describes a configmap from a protobuf get and a protobuf event list", async () => {
    const { stdout, stderr } = await s.kubectlWith({}, "describe", "configmap", "c", "-n", "pb", "-v=8");
    expect(stderr).toMatch(protobufResponse);
    expect(stderr).toContain("/api/v1/namespaces/pb/events?fieldSelector=");
    expect(stdout).toMatch(/Name:\s+c\nNamespace:\s+pb\n/);
    expect(stdout).toMatch(/Data\n====\na:\n----\nb\n/);
  });

  it("describes a deployment: IntOrString, pointers and nested templates survive protobuf", async () => {
    await s.kubectl("create", "deployment", "web", "--image=nginx:1.27", "--replicas=2", "-n", "pb");
    const out = await s.kubectl("describe", "deployment", "web", "-n", "pb");
    expect(out).toMatch(/Replicas:\s+2 desired/);
    expect(out).toMatch(/RollingUpdateStrategy:\s+25% max unavailable, 25% max surge/);
    expect(out).toMatch(/Image:\s+nginx:1\.27/);
    expect(out).toMatch(/Selector:\s+app=web/);
    const history = await s.kubectlWith({}, "rollout", "history", "deployment", "web", "-n", "pb", "-v=8");
    expect(history.stderr).toContain("/apis/apps/v1/namespaces/pb/replicasets?labelSelector=app%3Dweb");
    expect(history.stderr).toMatch(protobufResponse);
  });

  it("describes a secret's bytes and a service's ports", async () => {
    await s.kubectl("create", "secret", "generic", "s", "--from-literal=k=value", "-n", "pb");
    expect(await s.kubectl("describe", "secret", "s", "-n", "pb")).toMatch(/k:\s+5 bytes/);
    await s.kubectl("create", "service", "clusterip", "svc", "--tcp=80:8080", "-n", "pb");
    const svc = await s.kubectl("describe", "service", "svc", "-n", "pb");
    expect(svc).toMatch(/Port:\s+80-8080\s+80\/TCP/);
    expect(svc).toMatch(/TargetPort:\s+8080\/TCP/);
  });

  it("reads what it created back unchanged as YAML and deletes it", async () => {
    const yaml = await s.kubectl("get", "configmap", "c", "-n", "pb", "-o", "yaml");
    expect(yaml).toMatch(/data:\n {2}a: b\n/);
    expect(await s.kubectl("delete", "configmap", "c", "-n", "pb")).toBe('configmap "c" deleted\n');
    expect(await s.kubectlError("describe", "configmap", "c", "-n", "pb")).toContain('configmaps "c" not found');
  });
});
