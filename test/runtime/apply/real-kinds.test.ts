// Built-in kinds through the field manager, checked against managedFields kube-apiserver wrote for the same
// requests (as published in issues and tool output): `kubectl create deployment`, `kubectl apply
// --server-side`, the deployment controller's status update, a Service applied without port protocols.
import { describe, expect, it } from "vitest";
import { fieldTable } from "../../../generated/fields.js";
import { applyConfiguration, schemaForKind, updateManagedFields } from "../../../runtime/apply/field-manager.js";
import { decodeFieldsV1, encodeFieldsV1 } from "../../../runtime/apply/fieldpath/fields-v1.js";
import { StatusError } from "../../../runtime/errors/status-error.js";
import type { KubeObject } from "../../../runtime/object/kube-object.js";

const deployments = schemaForKind(fieldTable, "apps/v1/Deployment");
const services = schemaForKind(fieldTable, "v1/Service");

function entries(obj: KubeObject): Record<string, unknown>[] {
  return (obj.metadata as { managedFields: Record<string, unknown>[] }).managedFields;
}

/** The fieldsV1 of an entry as kube's bytes: the object as JSON, and the set encoded again. */
function fieldsBytes(entry: Record<string, unknown>): string {
  const json = JSON.stringify(entry.fieldsV1);
  expect(encodeFieldsV1(decodeFieldsV1(entry.fieldsV1))).toBe(json);
  return json;
}

/** `kubectl create deployment my-app --image=x` once defaulted, as the create handler passes it. */
const created: KubeObject = {
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "my-app", namespace: "my-app", labels: { app: "my-app" } },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: "my-app" } },
    template: {
      metadata: { labels: { app: "my-app" } },
      spec: {
        containers: [
          {
            name: "primer",
            image: "x",
            resources: {},
            terminationMessagePath: "/dev/termination-log",
            terminationMessagePolicy: "File",
            imagePullPolicy: "IfNotPresent",
          },
        ],
        restartPolicy: "Always",
        terminationGracePeriodSeconds: 30,
        dnsPolicy: "ClusterFirst",
        securityContext: {},
        schedulerName: "default-scheduler",
      },
    },
    strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: "25%", maxSurge: "25%" } },
    revisionHistoryLimit: 10,
    progressDeadlineSeconds: 600,
  },
  status: {},
};

/** The Deployment as stored after kubectl created it at `time`. */
function createdByKubectl(time: string): KubeObject {
  const out = updateManagedFields(deployments, undefined, created, {
    manager: "kubectl-create",
    apiVersion: "apps/v1",
    time,
    resetPaths: [["status"]],
  });
  return { ...out, metadata: { ...(out.metadata as Record<string, unknown>), uid: "c8e67d4e" } };
}

describe("FieldsV1 as kube writes it", () => {
  it("records kubectl create of a Deployment", () => {
    const [entry] = entries(createdByKubectl("2021-07-13T20:20:03Z"));
    expect(Object.keys(entry ?? {})).toEqual(["manager", "operation", "apiVersion", "time", "fieldsType", "fieldsV1"]);
    expect(fieldsBytes(entry ?? {})).toBe(
      String.raw`{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:revisionHistoryLimit":{},"f:selector":{},"f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"primer\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}}`,
    );
  });

  it("records the deployment controller's status update through the status subresource", () => {
    const live = createdByKubectl("2024-09-03T14:09:23Z");
    const condition = (type: string) => ({
      type,
      status: "True",
      lastUpdateTime: "2024-09-03T14:09:24Z",
      lastTransitionTime: "2024-09-03T14:09:24Z",
      reason: "R",
      message: "m",
    });
    const next = structuredClone(live);
    (next.metadata as Record<string, unknown>).annotations = { "deployment.kubernetes.io/revision": "1" };
    next.status = {
      observedGeneration: 1,
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      conditions: [condition("Available"), condition("Progressing")],
    };
    const out = updateManagedFields(deployments, live, next, {
      manager: "kube-controller-manager",
      apiVersion: "apps/v1",
      subresource: "status",
      time: "2024-09-03T14:09:24Z",
      resetPaths: [["spec"]],
    });
    const status = entries(out)[1] ?? {};
    expect(Object.keys(status)).toEqual([
      "manager",
      "operation",
      "apiVersion",
      "time",
      "fieldsType",
      "fieldsV1",
      "subresource",
    ]);
    expect(status.subresource).toBe("status");
    expect(fieldsBytes(status)).toBe(
      String.raw`{"f:metadata":{"f:annotations":{".":{},"f:deployment.kubernetes.io/revision":{}}},"f:status":{"f:availableReplicas":{},"f:conditions":{".":{},"k:{\"type\":\"Available\"}":{".":{},"f:lastTransitionTime":{},"f:lastUpdateTime":{},"f:message":{},"f:reason":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Progressing\"}":{".":{},"f:lastTransitionTime":{},"f:lastUpdateTime":{},"f:message":{},"f:reason":{},"f:status":{},"f:type":{}}},"f:observedGeneration":{},"f:readyReplicas":{},"f:replicas":{},"f:updatedReplicas":{}}}`,
    );
  });

  it("records kubectl apply --server-side of a Deployment, ports keyed with their default protocol", () => {
    const out = applyConfiguration(
      deployments,
      undefined,
      {
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name: "nginx-deployment", labels: { app: "nginx" } },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: "nginx" } },
          template: {
            metadata: { labels: { app: "nginx" } },
            spec: {
              containers: [
                {
                  name: "nginx",
                  image: "nginx:1.14.2",
                  ports: [{ containerPort: 80 }],
                  env: [{ name: "MY_NODE_NAME", valueFrom: { fieldRef: { fieldPath: "spec.nodeName" } } }],
                },
              ],
            },
          },
        },
      },
      {
        manager: "provider-kubernetes/sample-deployment-owner",
        apiVersion: "apps/v1",
        time: "2024-09-03T14:09:23Z",
        force: true,
      },
    );
    const [entry] = entries(out);
    expect(entry?.operation).toBe("Apply");
    expect(fieldsBytes(entry ?? {})).toBe(
      String.raw`{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:env":{"k:{\"name\":\"MY_NODE_NAME\"}":{".":{},"f:name":{},"f:valueFrom":{"f:fieldRef":{}}}},"f:image":{},"f:name":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}}}}}}`,
    );
  });

  it("keys Service ports by port and defaulted protocol", () => {
    const out = applyConfiguration(
      services,
      undefined,
      {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "kube-dns", namespace: "kube-system" },
        spec: {
          clusterIP: "10.43.0.10",
          ports: [
            { name: "dns", port: 53, protocol: "UDP" },
            { name: "dns-tcp", port: 53 },
          ],
        },
      },
      { manager: "deploy@node", apiVersion: "v1", time: "2021-07-12T00:00:00Z", force: false },
    );
    expect(fieldsBytes(entries(out)[0] ?? {})).toBe(
      String.raw`{"f:spec":{"f:clusterIP":{},"f:ports":{"k:{\"port\":53,\"protocol\":\"TCP\"}":{".":{},"f:name":{},"f:port":{}},"k:{\"port\":53,\"protocol\":\"UDP\"}":{".":{},"f:name":{},"f:port":{},"f:protocol":{}}}}}`,
    );
  });
});

describe("conflicts on a Deployment", () => {
  it("names the container and field, and the updater with its version", () => {
    const live = createdByKubectl("2021-07-13T20:20:03Z");
    const config: KubeObject = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "my-app", namespace: "my-app" },
      spec: { replicas: 3, template: { spec: { containers: [{ name: "primer", image: "y" }] } } },
    };
    let caught: unknown;
    try {
      applyConfiguration(deployments, live, config, {
        manager: "kubectl",
        apiVersion: "apps/v1",
        time: "2021-07-14T00:00:00Z",
        force: false,
      });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(StatusError);
    expect((caught as StatusError).status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        'Apply failed with 2 conflicts: conflicts with "kubectl-create" using apps/v1:\n- .spec.replicas\n- .spec.template.spec.containers[name="primer"].image',
      reason: "Conflict",
      details: {
        causes: [
          {
            reason: "FieldManagerConflict",
            message: 'conflict with "kubectl-create" using apps/v1',
            field: ".spec.replicas",
          },
          {
            reason: "FieldManagerConflict",
            message: 'conflict with "kubectl-create" using apps/v1',
            field: '.spec.template.spec.containers[name="primer"].image',
          },
        ],
      },
      code: 409,
    });
  });
});
