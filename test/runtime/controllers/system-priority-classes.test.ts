// The scheduling/bootstrap-system-priority-classes hook's objects against kube-apiserver v1.36.2's
// (test/data/bootstrap/priorityclasses.json).
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureSystemPriorityClasses } from "../../../runtime/controllers/system-priority-classes.js";
import type { KubeObject } from "../../../runtime/object/kube-object.js";
import { type Harness, kind, metadata, startHarness } from "./controller-harness.js";

const reference = JSON.parse(
  readFileSync(new URL("../../data/bootstrap/priorityclasses.json", import.meta.url), "utf8"),
) as { items: KubeObject[] };
const priorityClassKind = kind("scheduling.k8s.io", "v1", "PriorityClass");

describe("system priority classes", () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await startHarness({ enabled: { systemPriorityClasses: false, flowControlBootstrap: false } });
  });
  afterEach(async () => {
    await harness.close();
  });
  const context = () => ({ signal: new AbortController().signal, log: () => {} });

  it("creates system-node-critical and system-cluster-critical with kube's values and descriptions", async () => {
    await ensureSystemPriorityClasses(harness.api, context());
    const items = (await harness.api.list({ kind: priorityClassKind })).items.map((item) => item.object);
    const shaped = items.map(({ apiVersion: _a, kind: _k, metadata: _m, ...fields }, i) => ({
      metadata: { name: metadata(items[i]).name, generation: metadata(items[i]).generation },
      ...fields,
    }));
    expect(shaped).toEqual(reference.items);
    expect(metadata(items[0]).managedFields).toMatchObject([{ manager: "kube-apiserver", operation: "Update" }]);
  });

  it("leaves classes that exist alone", async () => {
    await ensureSystemPriorityClasses(harness.api, context());
    const before = (await harness.api.list({ kind: priorityClassKind })).resourceVersion;
    await ensureSystemPriorityClasses(harness.api, context());
    expect((await harness.api.list({ kind: priorityClassKind })).resourceVersion).toBe(before);
  });

  it("refuses to delete a system class by name, with kube's 403", async () => {
    await ensureSystemPriorityClasses(harness.api, context());
    const refused = harness.api.delete({ kind: priorityClassKind, name: "system-node-critical" });
    // The reference's answer to `kubectl delete priorityclass system-node-critical`.
    await expect(refused).rejects.toMatchObject({
      status: {
        code: 403,
        reason: "Forbidden",
        message:
          'priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted',
      },
    });
  });
});
