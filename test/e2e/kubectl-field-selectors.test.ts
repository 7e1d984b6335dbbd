// kubectl's --field-selector against a started server: per-kind fields of pods, secrets and events, and
// kube's 400 for a label the kind's field label conversion does not take.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, type KubectlSession, startKubectlSession } from "./kubectl-session.js";

function pod(name: string, nodeName: string): object {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name },
    spec: { nodeName, containers: [{ name: "c", image: "nginx:1.27" }] },
  };
}

function event(name: string, about: string, reason: string, uid?: string): object {
  return {
    apiVersion: "v1",
    kind: "Event",
    metadata: { name },
    involvedObject: { apiVersion: "v1", kind: "Pod", name: about, namespace: "fs", ...(uid ? { uid } : {}) },
    reason,
    message: `${reason} ${about}`,
    type: "Normal",
    source: { component: "kubelet" },
    firstTimestamp: "2025-01-01T00:00:00Z",
    lastTimestamp: "2025-01-01T00:00:00Z",
    count: 1,
  };
}

describe.skipIf(!haveKubectl)("kubectl --field-selector", () => {
  let session: KubectlSession;
  const kubectl = (...args: string[]) => session.kubectl(...args);
  const create = (name: string, items: object[]) =>
    kubectl("create", "-n", "fs", "-f", session.file(name, items.map((item) => JSON.stringify(item)).join("\n")));
  const names = async (...args: string[]) => (await kubectl("get", "-n", "fs", "-o", "name", ...args)).split("\n");

  beforeAll(async () => {
    session = await startKubectlSession();
    await kubectl("create", "namespace", "fs");
    await create("pods.json", [pod("web-1", "n1"), pod("web-2", "n1"), pod("web-3", "n2")]);
    for (const name of ["web-1", "web-3"]) {
      const patch = JSON.stringify({ status: { phase: "Running" } });
      await kubectl("patch", "pod", name, "-n", "fs", "--subresource=status", "--type=merge", "-p", patch);
    }
  });
  afterAll(() => session?.close());

  it("selects pods by phase and node", async () => {
    expect(await names("pods", "--field-selector", "status.phase=Running,spec.nodeName=n1")).toEqual(["pod/web-1", ""]);
    expect(await names("pods", "--field-selector", "spec.nodeName=n1")).toEqual(["pod/web-1", "pod/web-2", ""]);
    expect(await names("pods", "--field-selector", "status.phase!=Running")).toEqual(["pod/web-2", ""]);
  });

  it("selects secrets by type", async () => {
    await kubectl("create", "secret", "generic", "plain", "-n", "fs", "--from-literal=k=v");
    await kubectl(
      "create",
      "secret",
      "generic",
      "custom",
      "-n",
      "fs",
      "--type=example.com/custom",
      "--from-literal=k=v",
    );
    expect(await names("secrets", "--field-selector", "type=Opaque")).toEqual(["secret/plain", ""]);
    expect(await names("secrets", "--field-selector", "type!=Opaque,metadata.name!=plain")).toEqual([
      "secret/custom",
      "",
    ]);
  });

  it("selects events by the object they are about", async () => {
    await create("events.json", [event("e1", "web-1", "Scheduled"), event("e2", "web-3", "Pulled")]);
    expect(await names("events", "--field-selector", "involvedObject.name=web-3")).toEqual(["event/e2", ""]);
    expect(await names("events", "--field-selector", "involvedObject.kind=Pod,reason=Scheduled")).toEqual([
      "event/e1",
      "",
    ]);
  });

  it("shows a pod's events in kubectl describe, which selects them by kind, name, namespace and uid", async () => {
    const uid = await kubectl("get", "pod", "web-2", "-n", "fs", "-o", "jsonpath={.metadata.uid}");
    await create("described.json", [event("e3", "web-2", "Described", uid)]);
    const described = await kubectl("describe", "pod", "web-2", "-n", "fs");
    expect(described).toMatch(/Events:\n.*\n.*\n\s+Normal\s+Described\s+.*kubelet\s+Described web-2\n/);
  });

  it("answers an unsupported label with kube's 400", async () => {
    // kubectl prefixes the server's message with what it was looking for.
    expect(await session.kubectlError("get", "pods", "-n", "fs", "--field-selector", "spec.foo=bar")).toBe(
      'Error from server (BadRequest): Unable to find "/v1, Resource=pods" that match label selector "", ' +
        'field selector "spec.foo=bar": field label not supported: spec.foo\n',
    );
    expect(await session.kubectlError("get", "configmaps", "-n", "fs", "--field-selector", "data.k=v")).toContain(
      ': "data.k" is not a known field selector: only "metadata.name", "metadata.namespace"\n',
    );
  });
});
