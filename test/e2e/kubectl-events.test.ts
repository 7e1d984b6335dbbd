// kubectl on one Event store: an events.k8s.io/v1 event read as a core event and back, selected by each API's
// field labels, deleted through one API and gone from the other; and the deprecation Warning kubectl prints for
// v1 Endpoints. The outputs are kubectl v1.32's against kube-apiserver v1.36.2 for the same commands.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, type KubectlSession, startKubectlSession } from "./kubectl-session.js";

const strictEvent = `apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: e-ev1, namespace: e-ns1}
eventTime: "2026-01-02T03:04:05.123456Z"
reportingController: example.com/ctl
reportingInstance: inst-1
action: Create
reason: Made
note: hello
type: Normal
regarding: {kind: Pod, name: p1, namespace: e-ns1, apiVersion: v1, fieldPath: spec}
`;

const legacyEvent = `apiVersion: v1
kind: Event
metadata: {name: e-ev2, namespace: e-ns1}
involvedObject: {kind: Pod, name: p1, namespace: e-ns1}
reason: Old
message: legacy
source: {component: kubelet, host: node1}
type: Warning
`;

describe.skipIf(!haveKubectl)("kubectl on core/v1 and events.k8s.io/v1 Events", () => {
  let s: KubectlSession;
  beforeAll(async () => {
    s = await startKubectlSession({
      controllers: false,
      // No serviceaccount controller runs, so no `default` ServiceAccount exists to admit pods with.
      admission: { disablePlugins: ["ServiceAccount"] },
    });
    await s.kubectl("create", "namespace", "e-ns1");
    await s.kubectl("create", "-f", s.file("strict.yaml", strictEvent));
    await s.kubectl("create", "-f", s.file("legacy.yaml", legacyEvent));
  });
  afterAll(async () => s.close());

  it("reads each event through the other API", async () => {
    const core = "{.message}/{.reportingComponent}/{.involvedObject.name}";
    expect(await s.kubectl("get", "event", "e-ev1", "-n", "e-ns1", "-o", `jsonpath=${core}`)).toBe(
      "hello/example.com/ctl/p1",
    );
    const events = "{.note}/{.deprecatedSource.component}/{.regarding.name}";
    expect(await s.kubectl("get", "events.v1.events.k8s.io", "e-ev2", "-n", "e-ns1", "-o", `jsonpath=${events}`)).toBe(
      "legacy/kubelet/p1",
    );
  });

  it("selects by each API's field labels", async () => {
    const selected = (resource: string, selector: string) =>
      s.kubectl("get", resource, "-n", "e-ns1", "--field-selector", selector, "-o", "name");
    expect(await selected("events.v1.events.k8s.io", "reportingController=example.com/ctl")).toBe(
      "event.events.k8s.io/e-ev1\n",
    );
    expect(await selected("events", "source=kubelet")).toBe("event/e-ev2\n");
  });

  it("deletes through one API what the other then cannot find", async () => {
    expect(await s.kubectl("delete", "events.v1.events.k8s.io", "e-ev2", "-n", "e-ns1")).toBe(
      'event.events.k8s.io "e-ev2" deleted\n',
    );
    expect(await s.kubectlError("get", "event", "e-ev2", "-n", "e-ns1")).toBe(
      'Error from server (NotFound): events "e-ev2" not found\n',
    );
  });

  it("prints the deprecation Warning of v1 Endpoints", async () => {
    const { stdout, stderr } = await s.kubectlWith({}, "get", "endpoints", "-n", "default", "-o", "name");
    expect(stderr).toBe("Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n");
    expect(stdout).toBe("endpoints/kubernetes\n");
  });
});
