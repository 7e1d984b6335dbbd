// The quota evaluators on objects alone: usage, scopes and which writes they look at, as kube's evaluators
// (pkg/quota/v1/evaluator/core and the generic object counter) give them. The usage of the pod, services and
// claims of test/data/resource-quota/consumers.yaml matches what a reference kube-controller-manager v1.36.2
// computed for them (see the admission test).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { quotaMatches } from "../../../runtime/quota/evaluator.js";
import { quotaEvaluator } from "../../../runtime/quota/evaluators.js";
import { writeResourceList } from "../../../runtime/quota/resource-list.js";
import type { JsonObject } from "../../../runtime/validation/walk.js";

const consumers = parseAllDocuments(
  readFileSync(join(import.meta.dirname, "../../data/resource-quota/consumers.yaml"), "utf8"),
).map((d) => d.toJS() as JsonObject);
const byName = (name: string) => consumers.find((o) => (o.metadata as { name: string }).name === name) as JsonObject;
const now = new Date("2026-01-01T00:00:00Z");

const pods = quotaEvaluator("", "pods");
const usage = (group: string, resource: string, obj: JsonObject) =>
  writeResourceList(quotaEvaluator(group, resource)?.usage(obj, now) ?? new Map());

const pod = (spec: JsonObject, extra: JsonObject = {}): JsonObject => ({
  metadata: { name: "p" },
  spec: { containers: [{ name: "c", image: "x" }], ...spec },
  ...extra,
});

const quota = (hard: Record<string, string>, spec: JsonObject = {}): JsonObject => ({
  metadata: { name: "q" },
  spec: { hard, ...spec },
  status: { hard },
});

describe("quota evaluators", () => {
  it("charges a pod its requests, limits, extended resources and hugepages (sidecars, init containers)", () => {
    expect(usage("", "pods", byName("mixed"))).toEqual({
      "count/pods": "1",
      cpu: "500m",
      "hugepages-2Mi": "4Mi",
      "limits.cpu": "1",
      "limits.memory": "1184Mi",
      memory: "644Mi",
      pods: "1",
      "requests.cpu": "500m",
      "requests.example.com/gpu": "1",
      "requests.hugepages-2Mi": "4Mi",
      "requests.memory": "644Mi",
    });
  });

  it("counts a finished pod or one past its deletion grace period as an object only", () => {
    const busy = { containers: [{ name: "c", resources: { requests: { cpu: "1" } } }] };
    expect(usage("", "pods", pod(busy, { status: { phase: "Succeeded" } }))).toEqual({ "count/pods": "1" });
    const deleted = pod(busy, {
      metadata: { name: "p", deletionTimestamp: "2025-12-31T23:59:00Z", deletionGracePeriodSeconds: 30 },
    });
    expect(usage("", "pods", deleted)).toEqual({ "count/pods": "1" });
    const graceful = pod(busy, {
      metadata: { name: "p", deletionTimestamp: "2025-12-31T23:59:50Z", deletionGracePeriodSeconds: 30 },
    });
    expect(usage("", "pods", graceful).pods).toBe("1");
  });

  it("matches pod scopes and scope selectors as kube does", () => {
    const evaluator = pods as NonNullable<typeof pods>;
    const terminating = pod({ activeDeadlineSeconds: 0 });
    const affinity = pod({
      affinity: {
        podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ namespaces: ["x"], topologyKey: "k" }] },
      },
    });
    const high = pod({ priorityClassName: "high" });
    expect(quotaMatches(evaluator, quota({ pods: "1" }, { scopes: ["Terminating"] }), terminating)).toBe(true);
    expect(quotaMatches(evaluator, quota({ pods: "1" }, { scopes: ["NotTerminating"] }), terminating)).toBe(false);
    expect(quotaMatches(evaluator, quota({ pods: "1" }, { scopes: ["BestEffort"] }), terminating)).toBe(true);
    expect(quotaMatches(evaluator, quota({ pods: "1" }, { scopes: ["CrossNamespacePodAffinity"] }), affinity)).toBe(
      true,
    );
    const selector = (operator: string, values?: string[]) =>
      quota({ pods: "1" }, { scopeSelector: { matchExpressions: [{ scopeName: "PriorityClass", operator, values }] } });
    expect(quotaMatches(evaluator, selector("In", ["high"]), high)).toBe(true);
    expect(quotaMatches(evaluator, selector("NotIn", ["high"]), high)).toBe(false);
    expect(quotaMatches(evaluator, selector("NotIn", ["high"]), terminating)).toBe(true);
    expect(quotaMatches(evaluator, selector("Exists"), terminating)).toBe(false);
    expect(quotaMatches(evaluator, selector("DoesNotExist"), terminating)).toBe(true);
    // A quota limiting nothing pods consume does not match them.
    expect(quotaMatches(evaluator, quota({ services: "1" }), high)).toBe(false);
  });

  it("names the compute resources a container leaves out", () => {
    const evaluator = pods as NonNullable<typeof pods>;
    const p = pod({
      containers: [
        { name: "a", resources: { requests: { cpu: "1" } } },
        { name: "b", resources: {} },
      ],
    });
    expect(evaluator.constraints(["requests.cpu", "limits.memory", "pods"], p)).toBe(
      "must specify limits.memory for: a,b; requests.cpu for: b",
    );
  });

  it("charges services, node ports, load balancers and claims per storage class", () => {
    expect(usage("", "services", byName("np"))).toEqual({
      "count/services": "1",
      services: "1",
      "services.loadbalancers": "0",
      "services.nodeports": "2",
    });
    expect(usage("", "services", byName("lb"))).toEqual({
      "count/services": "1",
      services: "1",
      "services.loadbalancers": "1",
      "services.nodeports": "0",
    });
    expect(usage("", "persistentvolumeclaims", byName("gold"))).toEqual({
      "c-gold.storageclass.storage.k8s.io/persistentvolumeclaims": "1",
      "c-gold.storageclass.storage.k8s.io/requests.storage": "1536Mi",
      "count/persistentvolumeclaims": "1",
      persistentvolumeclaims: "1",
      "requests.storage": "1536Mi",
    });
  });

  it("counts ResourceClaim devices per class, the largest alternative of a firstAvailable request", () => {
    const claim = {
      spec: {
        devices: {
          requests: [
            { name: "a", exactly: { deviceClassName: "gpu", allocationMode: "ExactCount", count: 2 } },
            { name: "b", exactly: { deviceClassName: "gpu", allocationMode: "All" } },
            {
              name: "c",
              firstAvailable: [
                { name: "x", deviceClassName: "fpga", count: 1 },
                { name: "y", deviceClassName: "fpga", count: 3 },
              ],
            },
          ],
        },
      },
    };
    expect(usage("resource.k8s.io", "resourceclaims", claim)).toEqual({
      "count/resourceclaims.resource.k8s.io": "1",
      "fpga.deviceclass.resource.k8s.io/devices": "3",
      "gpu.deviceclass.resource.k8s.io/devices": "34",
    });
  });

  it("counts other objects under count/<resource>.<group> and the legacy names, on create only, events never", () => {
    expect(usage("", "configmaps", {})).toEqual({ configmaps: "1", "count/configmaps": "1" });
    expect(usage("example.com", "widgets", {})).toEqual({ "count/widgets.example.com": "1" });
    const widgets = quotaEvaluator("example.com", "widgets");
    expect(widgets?.handles({ operation: "CREATE", subresource: "" })).toBe(true);
    expect(widgets?.handles({ operation: "UPDATE", subresource: "" })).toBe(false);
    expect(quotaEvaluator("", "events")).toBeUndefined();
    expect(quotaEvaluator("events.k8s.io", "events")).toBeUndefined();
  });
});
