// Every kind's defaults against kube-apiserver v1.36's: each object of test/data/defaults/objects.yaml is created
// with a server-side dry run over HTTP, and kapi's answer, normalized, must equal what the reference answered
// (test/data/defaults/expected.json, recorded by scripts/record-defaults.ts), but for the gaps listed below.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { type RunningServer, startServer } from "../../../runtime/server/start-server.js";
import { defaultsNamespace, normalizeCreated, recordKey } from "../../data/defaults/normalize.js";

type Json = Record<string, unknown>;

const objects = parseAllDocuments(readFileSync("test/data/defaults/objects.yaml", "utf8")).map(
  (doc) => doc.toJS() as Json,
);
const expected = JSON.parse(readFileSync("test/data/defaults/expected.json", "utf8")) as Record<string, Json>;

/** kube writes these zero-valued statuses (non-omitempty Go structs) where kapi writes none yet. */
const zeroStatus = [
  "v1/ReplicationController/d-rc",
  "v1/ResourceQuota/d-rq",
  "apps/v1/DaemonSet/d-ds",
  "apps/v1/DaemonSet/d-ds-on-delete",
  "apps/v1/Deployment/d-deploy",
  "apps/v1/Deployment/d-deploy-recreate",
  "apps/v1/ReplicaSet/d-rs",
  "apps/v1/StatefulSet/d-sts",
  "autoscaling/v2/HorizontalPodAutoscaler/d-hpa",
  "autoscaling/v1/HorizontalPodAutoscaler/d-hpa-v1",
  "batch/v1/CronJob/d-cj",
  "batch/v1/Job/d-job",
  "batch/v1/Job/d-job-indexed",
  "flowcontrol.apiserver.k8s.io/v1/FlowSchema/d-fs",
  "flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration/d-plc",
  "flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration/d-plc-reject",
  "networking.k8s.io/v1/Ingress/d-ing",
  "policy/v1/PodDisruptionBudget/d-pdb",
  "resource.k8s.io/v1/ResourceClaim/d-claim",
  "resource.k8s.io/v1/ResourceClaim/d-claim-tolerations",
  "storage.k8s.io/v1/VolumeAttachment/d-va",
  "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy/d-vap",
  "apiregistration.k8s.io/v1/APIService/v1.d.example.com",
  "certificates.k8s.io/v1/CertificateSigningRequest/d-csr",
];

/**
 * Pod templates: kube defaults enableServiceLinks on Pods only, kapi on every pod spec: the schema default is
 * what tells the protobuf decoder that a false on the wire was set (runtime/codecs/protobuf/zero-values.ts).
 */
const templateServiceLinks: Record<string, string> = {
  "v1/PodTemplate/d-pt": "template.spec.enableServiceLinks",
  "batch/v1/CronJob/d-cj": "spec.jobTemplate.spec.template.spec.enableServiceLinks",
  ...Object.fromEntries(
    [
      "v1/ReplicationController/d-rc",
      "apps/v1/DaemonSet/d-ds",
      "apps/v1/DaemonSet/d-ds-on-delete",
      "apps/v1/Deployment/d-deploy",
      "apps/v1/Deployment/d-deploy-recreate",
      "apps/v1/ReplicaSet/d-rs",
      "apps/v1/StatefulSet/d-sts",
      "batch/v1/Job/d-job",
      "batch/v1/Job/d-job-indexed",
    ].map((key) => [key, "spec.template.spec.enableServiceLinks"]),
  ),
};

/** Differences that are not defaults of kapi's schemas and strategies, left to the parts that own them. */
const otherGaps: Record<string, string[]> = {
  // The pod-template strategy sets no generation for PodTemplates, as kube's podtemplate strategy does.
  "v1/PodTemplate/d-pt": ["metadata.generation"],
  // Fields core Events always carry (non-omitempty) and the events.k8s.io view of them.
  "v1/Event/d-ev": ["eventTime", "firstTimestamp", "lastTimestamp", "reportingComponent", "reportingInstance"],
  "events.k8s.io/v1/Event/d-ev2": ["deprecatedFirstTimestamp", "deprecatedLastTimestamp"],
  // The node strategy, and the TaintNodesByCondition admission plugin's not-ready taint.
  "v1/Node/d-node": ["metadata.generation", "spec.taints", "status"],
  // Finalizers of the StorageObjectInUseProtection admission plugin and the VolumeAttributesClass protection.
  "v1/PersistentVolume/d-pv": ["metadata.finalizers"],
  "v1/PersistentVolumeClaim/d-pvc": ["metadata.finalizers"],
  "storage.k8s.io/v1/VolumeAttributesClass/d-vac": ["metadata.finalizers"],
  // The requesting user, which kube's CertificateSigningRequest strategy records.
  "certificates.k8s.io/v1/CertificateSigningRequest/d-csr": ["spec.username", "spec.uid", "spec.groups"],
  "storage.k8s.io/v1/CSINode/d-node": ["spec.drivers.0.topologyKeys"],
  "apiextensions.k8s.io/v1/CustomResourceDefinition/widgets.d.example.com": [
    "status.acceptedNames",
    "status.conditions",
  ],
};

function gapsOf(key: string): string[] {
  return [
    ...(zeroStatus.includes(key) ? ["status"] : []),
    ...(templateServiceLinks[key] === undefined ? [] : [templateServiceLinks[key]]),
    ...(otherGaps[key] ?? []),
  ];
}

function without(obj: Json, paths: readonly string[]): Json {
  const copy = structuredClone(obj);
  for (const path of paths) {
    const keys = path.split(".");
    const last = keys.pop() as string;
    let node: unknown = copy;
    for (const k of keys) node = (node as Record<string, unknown> | undefined)?.[k];
    if (node !== null && typeof node === "object") delete (node as Record<string, unknown>)[last];
  }
  return copy;
}

describe("defaults of every kind, as kube-apiserver writes them", () => {
  let server: RunningServer;
  let call: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: Json }>;
  const plurals = new Map<string, string>();

  async function collection(obj: Json): Promise<string> {
    const apiVersion = String(obj.apiVersion);
    const base = apiVersion === "v1" ? "/api/v1" : `/apis/${apiVersion}`;
    if (!plurals.has(`${apiVersion}/`)) {
      const { body } = await call("GET", base);
      for (const r of body.resources as { name: string; kind: string; namespaced: boolean }[]) {
        if (!r.name.includes("/")) plurals.set(`${apiVersion}/${r.kind}`, r.namespaced ? `n:${r.name}` : r.name);
      }
      plurals.set(`${apiVersion}/`, "");
    }
    const plural = plurals.get(`${apiVersion}/${String(obj.kind)}`) as string;
    return plural.startsWith("n:") ? `${base}/namespaces/${defaultsNamespace}/${plural.slice(2)}` : `${base}/${plural}`;
  }

  beforeAll(async () => {
    server = await startServer({ insecure: true, controllers: false });
    call = async (method, path, body) => {
      const res = await fetch(server.url + path, {
        method,
        headers: { Authorization: `Bearer ${server.adminToken}`, "Content-Type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as Json };
    };
    const ns = await call("POST", "/api/v1/namespaces", { metadata: { name: defaultsNamespace } });
    expect(ns.status).toBe(201);
  });
  afterAll(() => server.close());

  it.each(objects.map((obj) => [recordKey(obj), obj] as const))("%s", async (key, obj) => {
    const answer = await call("POST", `${await collection(obj)}?dryRun=All`, obj);
    const reference = expected[key];
    expect(reference, "recorded by scripts/record-defaults.ts").toBeDefined();
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const gaps = gapsOf(key);
    expect(without(normalizeCreated(answer.body), gaps)).toEqual(without(reference as Json, gaps));
  });
});
