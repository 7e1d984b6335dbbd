// The resourcequota controller on its own (no quota admission here, so creates are not charged): status.hard
// from spec, status.used from what the namespace holds, recalculated on a spec.hard change and on deletions,
// and on its periodic resync, which also resets a status written by hand (a status write alone does not
// trigger a recalculation, as kube's controller ignores them).
import { describe, expect, it } from "vitest";
import { configMaps } from "../../../runtime/controllers/core-kinds.js";
import { ResourceQuotaController } from "../../../runtime/controllers/resource-quota-controller.js";
import { builtinKind } from "../../../runtime/registry/kinds.js";
import { eventually } from "./controller-harness.js";
import { runControllerPerTest } from "./run-controller.js";

const resyncMs = 600;
const setup = runControllerPerTest((api, context) => new ResourceQuotaController(api, context, resyncMs));
const quotas = builtinKind("", "v1", "resourcequotas");
const quota = { kind: quotas, namespace: "default", name: "q" };

async function statusOf() {
  return (await setup.harness.api.get(quota)).object.status;
}

describe("resourcequota controller", () => {
  it("sets hard and used, and recalculates on a spec change and on deletions", async () => {
    const { api } = setup.harness;
    for (const name of ["a", "b"]) await api.create({ kind: configMaps, namespace: "default" }, { metadata: { name } });
    await api.create(
      { kind: quotas, namespace: "default" },
      { metadata: { name: "q" }, spec: { hard: { configmaps: "5" } } },
    );
    await eventually(async () =>
      expect(await statusOf()).toEqual({ hard: { configmaps: "5" }, used: { configmaps: "2" } }),
    );
    const current = (await api.get(quota)).object;
    await api.update(quota, { ...current, spec: { hard: { configmaps: "5", "count/configmaps": "4", pods: "2" } } });
    await eventually(async () =>
      expect(await statusOf()).toEqual({
        hard: { configmaps: "5", "count/configmaps": "4", pods: "2" },
        used: { configmaps: "2", "count/configmaps": "2", pods: "0" },
      }),
    );
    await api.delete({ kind: configMaps, namespace: "default", name: "a" });
    await eventually(async () =>
      expect(((await statusOf()) as { used: unknown }).used).toMatchObject({ configmaps: "1" }),
    );
  });

  it("leaves a status written by hand until its resync resets it", async () => {
    const { api } = setup.harness;
    await api.create({ kind: quotas, namespace: "default" }, { metadata: { name: "q" }, spec: { hard: { cpu: "1" } } });
    await eventually(async () => expect(await statusOf()).toEqual({ hard: { cpu: "1" }, used: { cpu: "0" } }));
    const current = (await api.get(quota)).object;
    await api.update({ ...quota, subresource: "status" }, { ...current, status: { hard: { cpu: "2" } } });
    expect(await statusOf()).toEqual({ hard: { cpu: "2" } });
    await eventually(async () => expect(await statusOf()).toEqual({ hard: { cpu: "1" }, used: { cpu: "0" } }), 3000);
  });
});
