// kube-apiserver's identity Lease against kube-apiserver v1.36.2's on the host `vm`
// (test/data/bootstrap/identity-lease.json): its name, labels, holder and duration; renewed, created again
// when deleted, deleted at stop; expired identity leases collected.
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiserverIdentityLease, apiserverId } from "../../../runtime/controllers/apiserver-identity-lease.js";
import type { KubeObject } from "../../../runtime/object/kube-object.js";
import { eventually, find, type Harness, kind, metadata, startHarness } from "./controller-harness.js";

const reference = JSON.parse(
  readFileSync(new URL("../../data/bootstrap/identity-lease.json", import.meta.url), "utf8"),
) as { lease: KubeObject };
const leaseKind = kind("coordination.k8s.io", "v1", "Lease");
const namespace = "kube-system";

describe("apiserver identity lease", () => {
  let harness: Harness;
  let abort: AbortController;
  let logged: unknown[];
  beforeEach(async () => {
    harness = await startHarness({
      enabled: { apiserverIdentity: false, flowControlBootstrap: false, systemPriorityClasses: false },
    });
    abort = new AbortController();
    logged = [];
  });
  afterEach(async () => {
    abort.abort();
    await harness.close();
    expect(logged).toEqual([]);
  });
  const context = () => ({
    signal: abort.signal,
    log: (message: string, error: unknown) => logged.push({ message, error }),
  });
  const lease = (name: string) => find(harness.api, { kind: leaseKind, namespace, name });
  const present = async (name: string) => {
    const found = await lease(name);
    if (found === undefined) throw new Error(`no lease ${name}`);
    return found;
  };

  it("names itself as kube-apiserver does on the same host", () => {
    expect(apiserverId("vm")).toBe(metadata(reference.lease).name);
  });

  it("holds the lease with kube's labels and duration, renews it, and recreates it when deleted", async () => {
    const controller = new ApiserverIdentityLease(harness.api, context(), { hostname: "vm", renewIntervalMs: 30 });
    await controller.start();
    const renewing = controller.renew();
    const first = await eventually(() => present(controller.name));
    const { uid: _u, resourceVersion: _r, creationTimestamp: _c, managedFields, ...meta } = metadata(first);
    const spec = first.spec as { holderIdentity: string; renewTime: string };
    expect({
      metadata: meta,
      spec: { ...spec, holderIdentity: spec.holderIdentity.replace(/_.*/, "_<uuid>"), renewTime: "<renewTime>" },
    }).toEqual(reference.lease);
    expect(spec.holderIdentity).toMatch(/^apiserver-wlv32tlttr4jl3gtroqexyxapa_[0-9a-f-]{36}$/);
    expect(spec.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(managedFields).toMatchObject([{ manager: "kube-apiserver", operation: "Update" }]);
    await eventually(async () =>
      expect(((await lease(controller.name)) as KubeObject).spec).not.toMatchObject({ renewTime: spec.renewTime }),
    );
    await harness.api.delete({ kind: leaseKind, namespace, name: controller.name });
    const again = await eventually(() => present(controller.name));
    expect((again.spec as { holderIdentity: string }).holderIdentity).toBe(spec.holderIdentity);
    abort.abort();
    await renewing;
    expect(await lease(controller.name)).toBeUndefined();
  });

  it("deletes the lease of an earlier run at start", async () => {
    const earlier = new ApiserverIdentityLease(harness.api, context(), { hostname: "f-host" });
    const stale = {
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: earlier.name, namespace },
      spec: { holderIdentity: "someone" },
    };
    await harness.api.create({ kind: leaseKind, namespace }, stale);
    await earlier.start();
    expect(await lease(earlier.name)).toBeUndefined();
  });

  it("collects expired kube-apiserver identity leases, and only those", async () => {
    const create = (name: string, renewTime: string, labels: Record<string, string>) =>
      harness.api.create(
        { kind: leaseKind, namespace },
        {
          apiVersion: "coordination.k8s.io/v1",
          kind: "Lease",
          metadata: { name, namespace, labels },
          spec: { holderIdentity: name, leaseDurationSeconds: 3600, renewTime },
        },
      );
    const identity = { "apiserver.kubernetes.io/identity": "kube-apiserver" };
    const longAgo = "2020-01-01T00:00:00.000000Z";
    await create("f-expired", longAgo, identity);
    await create("f-fresh", new Date().toISOString().replace("Z", "000Z"), identity);
    await create("f-other", longAgo, { "apiserver.kubernetes.io/identity": "other" });
    const controller = new ApiserverIdentityLease(harness.api, context(), { hostname: "f-host" });
    const collecting = controller.collect();
    await eventually(async () => expect(await lease("f-expired")).toBeUndefined());
    expect(await lease("f-fresh")).toBeDefined();
    expect(await lease("f-other")).toBeDefined();
    abort.abort();
    await collecting;
  });
});
