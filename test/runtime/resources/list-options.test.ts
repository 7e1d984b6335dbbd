import { describe, expect, it } from "vitest";
import { kinds } from "../../../generated/registry.js";
import { StatusError } from "../../../runtime/errors/status-error.js";
import type { KubeObject } from "../../../runtime/object/kube-object.js";
import { kindReference } from "../../../runtime/registry/kinds.js";
import { byGroupVersionKind } from "../../../runtime/registry/lookup.js";
import type { ResourceKindRecord, ServedKind } from "../../../runtime/registry/served-kind.js";
import { selectionFilter } from "../../../runtime/resources/list-options.js";

function kind(group: string, version: string, name: string): ServedKind {
  return kindReference(byGroupVersionKind(kinds, group, version, name) as ResourceKindRecord);
}

/** The objects of `objects` the field selector keeps. */
function select(k: ServedKind, fieldSelector: string, objects: KubeObject[]): string[] {
  const filter = selectionFilter(k, { fieldSelector });
  return objects.filter((o) => filter === undefined || filter(o)).map((o) => (o.metadata as { name: string }).name);
}

function refusal(k: ServedKind, fieldSelector: string): { code: number; reason: string; message: string } {
  try {
    selectionFilter(k, { fieldSelector });
  } catch (error) {
    if (error instanceof StatusError) return error.status as { code: number; reason: string; message: string };
    throw error;
  }
  throw new Error(`${fieldSelector} was accepted`);
}

const pods = kind("", "v1", "Pod");
const podList: KubeObject[] = [
  {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "a", namespace: "ns" },
    spec: { nodeName: "n1", restartPolicy: "Always", hostNetwork: true },
    status: { phase: "Running", podIPs: [{ ip: "10.0.0.1" }], podIP: "10.0.0.1" },
  },
  {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "b", namespace: "ns" },
    spec: { nodeName: "n2", restartPolicy: "Never" },
    status: { phase: "Running", podIP: "10.0.0.2" },
  },
  {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "c", namespace: "other" },
    spec: {},
    status: { phase: "Pending" },
  },
];

describe("field selectors of built-in kinds", () => {
  it("selects pods by their per-kind fields", () => {
    expect(select(pods, "status.phase=Running,spec.nodeName=n1", podList)).toEqual(["a"]);
    expect(select(pods, "status.phase!=Running", podList)).toEqual(["c"]);
    expect(select(pods, "spec.nodeName=", podList)).toEqual(["c"]);
    expect(select(pods, "spec.restartPolicy=Never", podList)).toEqual(["b"]);
    expect(select(pods, "metadata.namespace=ns", podList)).toEqual(["a", "b"]);
  });

  it("reads computed pod fields: the first pod IP, hostNetwork's zero value, spec.host as spec.nodeName", () => {
    expect(select(pods, "status.podIP=10.0.0.1", podList)).toEqual(["a"]);
    expect(select(pods, "status.podIP=10.0.0.2", podList)).toEqual(["b"]);
    expect(select(pods, "spec.hostNetwork=false", podList)).toEqual(["b", "c"]);
    expect(select(pods, "spec.hostNetwork=true", podList)).toEqual(["a"]);
    expect(select(pods, "spec.host=n2", podList)).toEqual(["b"]);
    // Accepted by the conversion, never set in the field set.
    expect(select(pods, "status.podIPs=", podList)).toEqual(["a", "b", "c"]);
  });

  it("selects secrets by type and events by their involved object", () => {
    const secrets = [
      { apiVersion: "v1", kind: "Secret", metadata: { name: "s1" }, type: "Opaque" },
      { apiVersion: "v1", kind: "Secret", metadata: { name: "s2" }, type: "kubernetes.io/tls" },
    ];
    expect(select(kind("", "v1", "Secret"), "type=Opaque", secrets)).toEqual(["s1"]);
    const events = [
      {
        apiVersion: "v1",
        kind: "Event",
        metadata: { name: "e1" },
        involvedObject: { kind: "Pod", name: "a" },
        source: { component: "kubelet" },
      },
      {
        apiVersion: "v1",
        kind: "Event",
        metadata: { name: "e2" },
        involvedObject: { kind: "Pod", name: "b" },
        reportingComponent: "scheduler",
      },
    ];
    const coreEvents = kind("", "v1", "Event");
    expect(select(coreEvents, "involvedObject.name=a", events)).toEqual(["e1"]);
    expect(select(coreEvents, "involvedObject.kind=Pod,reason=", events)).toEqual(["e1", "e2"]);
    // source is source.component, else the reporting component.
    expect(select(coreEvents, "source=kubelet", events)).toEqual(["e1"]);
    expect(select(coreEvents, "source=scheduler", events)).toEqual(["e2"]);
  });

  it("selects events.k8s.io events under their own names", () => {
    const events = [
      {
        apiVersion: "events.k8s.io/v1",
        kind: "Event",
        metadata: { name: "e1" },
        regarding: { kind: "Pod", name: "a" },
        reportingController: "kubelet",
      },
      {
        apiVersion: "events.k8s.io/v1",
        kind: "Event",
        metadata: { name: "e2" },
        regarding: { kind: "Node", name: "n1" },
        deprecatedSource: { component: "node-controller" },
      },
    ];
    const eventsV1 = kind("events.k8s.io", "v1", "Event");
    expect(select(eventsV1, "regarding.name=a", events)).toEqual(["e1"]);
    expect(select(eventsV1, "reportingController=kubelet", events)).toEqual(["e1"]);
    // kube-apiserver maps no `source` label for events.k8s.io/v1 (only core/v1 events have one).
    expect(refusal(eventsV1, "source=node-controller").message).toBe("field label not supported: source");
    expect(refusal(eventsV1, "involvedObject.name=a").message).toBe("field label not supported: involvedObject.name");
  });

  it("prints integers and booleans, zero when absent", () => {
    const jobs = [
      { apiVersion: "batch/v1", kind: "Job", metadata: { name: "j1" }, status: { succeeded: 2 } },
      { apiVersion: "batch/v1", kind: "Job", metadata: { name: "j2" }, status: {} },
    ];
    const jobKind = kind("batch", "v1", "Job");
    expect(select(jobKind, "status.successful=2", jobs)).toEqual(["j1"]);
    expect(select(jobKind, "status.successful=0", jobs)).toEqual(["j2"]);
    const nodes = [
      { apiVersion: "v1", kind: "Node", metadata: { name: "n1" }, spec: { unschedulable: true } },
      { apiVersion: "v1", kind: "Node", metadata: { name: "n2" }, spec: {} },
    ];
    expect(select(kind("", "v1", "Node"), "spec.unschedulable=false", nodes)).toEqual(["n2"]);
    const rcs = [{ apiVersion: "v1", kind: "ReplicationController", metadata: { name: "rc" }, status: {} }];
    expect(select(kind("", "v1", "ReplicationController"), "status.replicas=0", rcs)).toEqual(["rc"]);
  });

  it("reads the object in the requested version when it is stored in another", () => {
    const bundles = [
      {
        apiVersion: "certificates.k8s.io/v1beta1",
        kind: "ClusterTrustBundle",
        metadata: { name: "example.com:signer:b1" },
        spec: { signerName: "example.com/signer", trustBundle: "" },
      },
    ];
    const v1alpha1 = kind("certificates.k8s.io", "v1alpha1", "ClusterTrustBundle");
    expect(select(v1alpha1, "spec.signerName=example.com/signer", bundles)).toEqual(["example.com:signer:b1"]);
    expect(select(v1alpha1, "spec.signerName=other", bundles)).toEqual([]);
  });

  it("answers a label the kind does not take with its conversion's 400", () => {
    expect(refusal(pods, "spec.foo=bar")).toMatchObject({
      code: 400,
      reason: "BadRequest",
      message: "field label not supported: spec.foo",
    });
    expect(refusal(kind("", "v1", "Node"), "metadata.namespace=x").message).toBe(
      "field label not supported: metadata.namespace",
    );
    expect(refusal(kind("batch", "v1", "Job"), "status.active=1").message).toBe(
      'field label "status.active" not supported for Job',
    );
    expect(refusal(kind("resource.k8s.io", "v1", "ResourceSlice"), "spec.pool=x").message).toBe(
      "field label not supported for resource.k8s.io/v1, Kind=ResourceSlice: spec.pool",
    );
    // apps/v1 registers no conversion: its ReplicaSet's status.replicas is refused by the default one.
    expect(refusal(kind("apps", "v1", "ReplicaSet"), "status.replicas=1").message).toBe(
      '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
    expect(refusal(kind("", "v1", "ConfigMap"), "data.x=1").message).toBe(
      '"data.x" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
  });

  it("leaves an empty selector unfiltered", () => {
    expect(selectionFilter(pods, {})).toBeUndefined();
    expect(selectionFilter(pods, { fieldSelector: "" })).toBeUndefined();
  });
});
