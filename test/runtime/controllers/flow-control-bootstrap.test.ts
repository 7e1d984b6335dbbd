// The priority-and-fairness-config-producer's objects against kube-apiserver v1.36.2's
// (test/data/bootstrap/flowcontrol.json), and kube's ensure rules: created when missing, mandatory specs put
// back, suggested ones only while `apf.kubernetes.io/autoupdate-spec` allows, dangling bootstrap objects gone.
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ensureFlowControlBootstrap,
  FlowControlBootstrap,
} from "../../../runtime/controllers/flow-control-bootstrap.js";
import type { KubeObject } from "../../../runtime/object/kube-object.js";
import { eventually, find, type Harness, kind, metadata, startHarness } from "./controller-harness.js";

const reference = JSON.parse(
  readFileSync(new URL("../../data/bootstrap/flowcontrol.json", import.meta.url), "utf8"),
) as { priorityLevelConfigurations: KubeObject[]; flowSchemas: KubeObject[] };

const plcKind = kind("flowcontrol.apiserver.k8s.io", "v1", "PriorityLevelConfiguration");
const fsKind = kind("flowcontrol.apiserver.k8s.io", "v1", "FlowSchema");

/** As the reference data is kept: metadata reduced to name, annotations and generation; no status. */
function shape(object: KubeObject): KubeObject {
  const { name, annotations, generation } = metadata(object);
  return { metadata: { name, annotations, generation }, spec: object.spec };
}

async function listed(harness: Harness, target: typeof plcKind) {
  return (await harness.api.list({ kind: target })).items.map((item) => item.object);
}

describe("flow control bootstrap", () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await startHarness({
      enabled: {
        flowControlBootstrap: false,
        apiserverIdentity: false,
        systemPriorityClasses: false,
        garbageCollector: false,
        namespaces: false,
      },
    });
  });
  afterEach(async () => {
    await harness.close();
  });

  const get = (target: typeof plcKind, name: string) => find(harness.api, { kind: target, name });
  const update = (target: typeof plcKind, object: KubeObject) =>
    harness.api.update({ kind: target, name: String(metadata(object).name) }, object);

  it("creates kube's PriorityLevelConfigurations and FlowSchemas, field for field", async () => {
    await ensureFlowControlBootstrap(harness.api);
    expect((await listed(harness, plcKind)).map(shape)).toEqual(reference.priorityLevelConfigurations);
    expect((await listed(harness, fsKind)).map(shape)).toEqual(reference.flowSchemas);
    const exempt = await get(plcKind, "exempt");
    expect(metadata(exempt).managedFields).toMatchObject([
      { manager: "api-priority-and-fairness-config-producer-v1", operation: "Update" },
    ]);
    // A second round finds nothing to change.
    const before = metadata(await get(fsKind, "probes")).resourceVersion;
    await ensureFlowControlBootstrap(harness.api);
    expect(metadata(await get(fsKind, "probes")).resourceVersion).toBe(before);
  });

  it("creates deleted objects again and puts a mandatory spec back", async () => {
    await ensureFlowControlBootstrap(harness.api);
    await harness.api.delete({ kind: fsKind, name: "global-default" });
    await harness.api.delete({ kind: plcKind, name: "catch-all" });
    const catchAll = structuredClone((await get(fsKind, "catch-all")) as KubeObject);
    (catchAll.spec as { matchingPrecedence: number }).matchingPrecedence = 9999;
    (metadata(catchAll).annotations as Record<string, string>)["apf.kubernetes.io/autoupdate-spec"] = "false";
    await update(fsKind, catchAll);
    await ensureFlowControlBootstrap(harness.api);
    expect(shape((await get(fsKind, "global-default")) as KubeObject)).toEqual(
      reference.flowSchemas.find((o) => metadata(o).name === "global-default"),
    );
    expect(await get(plcKind, "catch-all")).toBeDefined();
    const restored = (await get(fsKind, "catch-all")) as KubeObject;
    expect((restored.spec as { matchingPrecedence: number }).matchingPrecedence).toBe(10000);
    expect(metadata(restored).annotations).toEqual({ "apf.kubernetes.io/autoupdate-spec": "true" });
  });

  it("leaves a suggested object its spec once the annotation says false or it was changed without one", async () => {
    await ensureFlowControlBootstrap(harness.api);
    const probes = structuredClone((await get(fsKind, "probes")) as KubeObject);
    (probes.spec as { matchingPrecedence: number }).matchingPrecedence = 3;
    (metadata(probes).annotations as Record<string, string>)["apf.kubernetes.io/autoupdate-spec"] = "false";
    await update(fsKind, probes);
    const system = structuredClone((await get(plcKind, "system")) as KubeObject);
    (system.spec as { limited: { nominalConcurrencyShares: number } }).limited.nominalConcurrencyShares = 31;
    delete metadata(system).annotations;
    await update(plcKind, system);
    await ensureFlowControlBootstrap(harness.api);
    expect(((await get(fsKind, "probes")) as KubeObject).spec).toMatchObject({ matchingPrecedence: 3 });
    const kept = (await get(plcKind, "system")) as KubeObject;
    expect(kept.spec).toMatchObject({ limited: { nominalConcurrencyShares: 31 } });
    // Generation 2, no annotation: kube decides against updating and writes that down.
    expect(metadata(kept).annotations).toEqual({ "apf.kubernetes.io/autoupdate-spec": "false" });
  });

  it("leaves the exempt level's shares and lendable percent to the cluster", async () => {
    await ensureFlowControlBootstrap(harness.api);
    const exempt = structuredClone((await get(plcKind, "exempt")) as KubeObject);
    exempt.spec = { type: "Exempt", exempt: { nominalConcurrencyShares: 7, lendablePercent: 20 } };
    await update(plcKind, exempt);
    await ensureFlowControlBootstrap(harness.api);
    expect(((await get(plcKind, "exempt")) as KubeObject).spec).toEqual(exempt.spec);
  });

  it("deletes objects of other names that ask to be auto-updated, and only those", async () => {
    const level = (name: string, annotations?: Record<string, string>) => ({
      apiVersion: "flowcontrol.apiserver.k8s.io/v1",
      kind: "PriorityLevelConfiguration",
      metadata: { name, ...(annotations ? { annotations } : {}) },
      spec: { type: "Limited", limited: { nominalConcurrencyShares: 1, limitResponse: { type: "Reject" } } },
    });
    await harness.api.create({ kind: plcKind }, level("f-old", { "apf.kubernetes.io/autoupdate-spec": "true" }));
    await harness.api.create({ kind: plcKind }, level("f-mine"));
    await harness.api.create({ kind: plcKind }, level("f-kept", { "apf.kubernetes.io/autoupdate-spec": "false" }));
    await ensureFlowControlBootstrap(harness.api);
    expect(await get(plcKind, "f-old")).toBeUndefined();
    expect(await get(plcKind, "f-mine")).toBeDefined();
    expect(await get(plcKind, "f-kept")).toBeDefined();
  });

  it("ensures again periodically once started, as kube's producer does every minute", async () => {
    const abort = new AbortController();
    const logged: unknown[] = [];
    const producer = new FlowControlBootstrap(
      harness.api,
      { signal: abort.signal, log: (message, error) => logged.push({ message, error }) },
      { periodMs: 50 },
    );
    await producer.start();
    const running = producer.run();
    await harness.api.delete({ kind: fsKind, name: "exempt" });
    await eventually(async () => expect(await get(fsKind, "exempt")).toBeDefined());
    abort.abort();
    await running;
    expect(logged).toEqual([]);
  });
});
