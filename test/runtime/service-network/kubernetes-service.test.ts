// The objects kube-apiserver keeps for itself, read with kubectl as `kubectl get` shows them on a
// kube-apiserver v1.36.2 (test/data/service-network/, recorded with --advertise-address=192.0.2.2,
// --service-cluster-ip-range=10.0.0.0/24; uids, times and resourceVersions left out, the secure port a
// placeholder): the `default/kubernetes` Service, Endpoints and EndpointSlice, the ServiceCIDR `kubernetes`
// and the IPAddress of the Service's address; each put back after a delete or a change.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, type KubectlSession, startKubectlSession } from "../../e2e/kubectl-session.js";

const data = new URL("../../data/service-network/", import.meta.url);
const withPort = (text: string, port: string) => text.replaceAll("SECURE_PORT", port);

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read field by field
type Json = Record<string, any>;

function normalized(obj: Json): Json {
  const { uid: _u, resourceVersion: _r, creationTimestamp: _c, managedFields: _m, ...meta } = obj.metadata;
  const out: Json = { ...obj, metadata: meta };
  if (Array.isArray(obj.status?.conditions)) {
    out.status = {
      ...obj.status,
      conditions: obj.status.conditions.map(({ lastTransitionTime: _t, ...c }: Json) => c),
    };
  }
  return out;
}

async function eventually(check: () => Promise<void>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe.skipIf(!haveKubectl)("the kubernetes Service, its endpoints and the default ServiceCIDR", () => {
  let s: KubectlSession;
  let port: string;
  const get = async (...args: string[]): Promise<Json> =>
    normalized(JSON.parse(await s.kubectl("get", ...args, "-o", "json")));
  const objects = () =>
    Promise.all([
      get("svc", "kubernetes", "-n", "default"),
      get("endpoints", "kubernetes", "-n", "default"),
      get("endpointslice", "kubernetes", "-n", "default"),
      get("servicecidr", "kubernetes"),
      get("ipaddress", "10.0.0.1"),
    ]);

  beforeAll(async () => {
    s = await startKubectlSession({ advertiseAddress: "192.0.2.2" });
    port = new URL(s.server.url).port;
  });
  afterAll(() => s.close());

  it("answers kubectl get -o json as kube-apiserver does", async () => {
    const expected = JSON.parse(withPort(readFileSync(new URL("reference-objects.json", data), "utf8"), port));
    await eventually(async () => expect(await objects()).toEqual(expected));
  });

  it("answers kubectl get svc,ep,endpointslices -n default as kube-apiserver does", async () => {
    const expected = withPort(readFileSync(new URL("reference-default-tables.txt", data), "utf8"), port);
    const table = await s.kubectl("get", "svc,ep,endpointslices", "-n", "default");
    // The last column of every line is the age.
    expect(table.replace(/\S+$/gm, "AGE")).toBe(expected);
  });

  it("puts back what is deleted or changed", async () => {
    const expected = await objects();
    await s.kubectl("delete", "svc", "kubernetes", "-n", "default");
    await s.kubectl("delete", "endpointslice", "kubernetes", "-n", "default");
    await s.kubectl(
      "patch",
      "endpoints",
      "kubernetes",
      "-n",
      "default",
      "--type=merge",
      "-p",
      '{"subsets":[{"addresses":[{"ip":"192.0.2.9"}],"ports":[{"name":"https","port":1,"protocol":"TCP"}]}]}',
    );
    await s.kubectl("delete", "servicecidr", "kubernetes");
    await eventually(async () => {
      const current = await objects();
      expect(current.slice(0, 3)).toEqual(expected.slice(0, 3));
      expect(current[4]).toEqual(expected[4]);
    }, 15_000);
    // The default ServiceCIDR comes back on the controller's next round (every 10 s, as kube's).
    await eventually(async () => expect((await objects())[3]).toEqual(expected[3]), 15_000);
  }, 40_000);
});
