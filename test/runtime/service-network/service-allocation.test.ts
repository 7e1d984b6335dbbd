// Service allocation through the API as kube-apiserver v1.36 answers it: cluster IPs recorded as
// IPAddress objects, node ports and health check node ports, IP family defaults, dry runs, releases on
// delete and type changes, nothing left behind by a failed create, and node ports kept across a restart.
// Expected texts and shapes were read from a kube-apiserver v1.36.2 with --service-cluster-ip-range=10.0.0.0/24.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InProcessServer, startServer } from "../../../runtime/server/start-server.js";
import { SqliteStore } from "../../../runtime/storage/sqlite-store.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read field by field
type Json = Record<string, any>;

function client(server: InProcessServer) {
  const call = async (method: string, path: string, body?: object) => {
    const response = await server.request({ method, path, ...(body === undefined ? {} : { body }) });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const services = "/api/v1/namespaces/default/services";
  return {
    create: (name: string, spec: object, query = "") =>
      call("POST", `${services}${query}`, { apiVersion: "v1", kind: "Service", metadata: { name }, spec }),
    patch: async (name: string, patch: object) => {
      const response = await server.request({
        method: "PATCH",
        path: `${services}/${name}`,
        headers: { "content-type": "application/merge-patch+json" },
        body: JSON.stringify(patch),
      });
      return { status: response.status, body: (await response.json()) as Json };
    },
    remove: (name: string) => call("DELETE", `${services}/${name}`),
    ipAddress: (ip: string) => call("GET", `/apis/networking.k8s.io/v1/ipaddresses/${ip}`),
    ipAddressNames: async () =>
      ((await call("GET", "/apis/networking.k8s.io/v1/ipaddresses")).body.items as Json[]).map((i) => i.metadata.name),
  };
}

const port = (n: number) => ({ port: n });

describe("service allocation (single stack 10.0.0.0/24)", () => {
  let server: InProcessServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await startServer({ listen: false });
    api = client(server);
  });
  afterAll(() => server.close());

  it("gives a ClusterIP Service an address above the static band and records it as an IPAddress", async () => {
    const { status, body } = await api.create("web", { selector: { app: "web" }, ports: [port(80)] });
    expect(status).toBe(201);
    const ip = body.spec.clusterIP as string;
    expect(body.spec).toMatchObject({
      clusterIPs: [ip],
      ipFamilies: ["IPv4"],
      ipFamilyPolicy: "SingleStack",
      internalTrafficPolicy: "Cluster",
      sessionAffinity: "None",
      type: "ClusterIP",
    });
    // A /24 keeps its first 16 addresses for clients that ask for one (10.0.0.1 is the kubernetes Service's).
    const last = Number(ip.split(".")[3]);
    expect(ip.startsWith("10.0.0.")).toBe(true);
    expect(last).toBeGreaterThanOrEqual(17);
    expect(last).toBeLessThanOrEqual(254);
    const record = (await api.ipAddress(ip)).body;
    expect(record.metadata.labels).toEqual({
      "ipaddress.kubernetes.io/ip-family": "IPv4",
      "ipaddress.kubernetes.io/managed-by": "ipallocator.k8s.io",
    });
    expect(record.spec).toEqual({ parentRef: { resource: "services", namespace: "default", name: "web" } });
    expect(record.metadata.managedFields[0].manager).toBe("kube-apiserver");
  });

  it("refuses an address in use, out of every range, or of a family the cluster lacks", async () => {
    expect((await api.create("first", { clusterIP: "10.0.0.5", ports: [port(80)] })).status).toBe(201);
    const taken = await api.create("second", { clusterIP: "10.0.0.5", ports: [port(80)] });
    expect(taken.status).toBe(422);
    expect(taken.body.message).toBe(
      'Service "second" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.5"]: failed to allocate IP 10.0.0.5: provided IP is already allocated',
    );
    for (const ip of ["10.1.0.1", "10.0.0.0", "10.0.0.255"]) {
      const out = await api.create("out", { clusterIP: ip, ports: [port(80)] });
      expect(out.body.message).toBe(
        `Service "out" is invalid: spec.clusterIPs: Invalid value: ["${ip}"]: failed to allocate IP ${ip}: the provided network does not match the current range`,
      );
    }
    const v6 = await api.create("v6", { clusterIP: "fd00::5", ports: [port(80)] });
    expect(v6.body.message).toBe(
      'Service "v6" is invalid: spec.clusterIPs[0]: Invalid value: ["fd00::5"]: IPv6 is not configured on this cluster',
    );
    const dual = await api.create("dual", { ipFamilyPolicy: "RequireDualStack", ports: [port(80)] });
    expect(dual.body.message).toBe(
      'Service "dual" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
    );
    const family = await api.create("family", { ipFamilies: ["IPv6"], ports: [port(80)] });
    expect(family.body.message).toBe(
      'Service "family" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster',
    );
  });

  it("defaults the IP families of headless and PreferDualStack Services as kube does", async () => {
    const headless = await api.create("headless", { clusterIP: "None", ports: [port(80)] });
    expect(headless.body.spec).toMatchObject({
      clusterIP: "None",
      clusterIPs: ["None"],
      ipFamilies: ["IPv4", "IPv6"],
      ipFamilyPolicy: "RequireDualStack",
    });
    const selected = await api.create("headless-sel", { clusterIP: "None", selector: { a: "b" }, ports: [port(80)] });
    expect(selected.body.spec).toMatchObject({ ipFamilies: ["IPv4"], ipFamilyPolicy: "SingleStack" });
    const prefer = await api.create("prefer", { ipFamilyPolicy: "PreferDualStack", ports: [port(80)] });
    expect(prefer.body.spec).toMatchObject({ ipFamilies: ["IPv4"], ipFamilyPolicy: "PreferDualStack" });
  });

  it("allocates node ports and health check node ports, and checks the ones asked for", async () => {
    const np = await api.create("np", { type: "NodePort", selector: { app: "x" }, ports: [port(80)] });
    const nodePort = np.body.spec.ports[0].nodePort as number;
    expect(nodePort).toBeGreaterThanOrEqual(30000);
    expect(nodePort).toBeLessThanOrEqual(32767);
    const again = await api.create("np2", { type: "NodePort", ports: [{ port: 80, nodePort }] });
    expect(again.body.message).toBe(
      `Service "np2" is invalid: spec.ports[0].nodePort: Invalid value: ${nodePort}: provided port is already allocated`,
    );
    const outside = await api.create("np3", { type: "NodePort", ports: [{ port: 80, nodePort: 40000 }] });
    expect(outside.body.message).toBe(
      'Service "np3" is invalid: spec.ports[0].nodePort: Invalid value: 40000: provided port is not in the valid range. The range of valid ports is 30000-32767',
    );
    const lb = await api.create("lb", { type: "LoadBalancer", externalTrafficPolicy: "Local", ports: [port(80)] });
    expect(lb.body.spec.healthCheckNodePort).toBeGreaterThanOrEqual(30000);
    expect(lb.body.spec.allocateLoadBalancerNodePorts).toBe(true);
  });

  it("leaves nothing behind when a create fails after its claims", async () => {
    const before = await api.ipAddressNames();
    const np = await api.create("np-hc", { type: "NodePort", ports: [port(81)] });
    const taken = np.body.spec.ports[0].nodePort as number;
    const failed = await api.create("lb-taken", {
      type: "LoadBalancer",
      externalTrafficPolicy: "Local",
      healthCheckNodePort: taken,
      ports: [port(80)],
    });
    expect(failed.status).toBe(500);
    expect(failed.body.message).toBe(
      `Internal error occurred: failed to allocate requested HealthCheck NodePort ${taken}: provided port is already allocated`,
    );
    // Validation fails after the claims: an unnamed second port.
    const invalid = await api.create("bad-ports", { type: "NodePort", ports: [port(80), port(81)] });
    expect(invalid.status).toBe(422);
    expect(await api.ipAddressNames()).toEqual([...before, np.body.spec.clusterIP].sort());
  });

  it("claims nothing on a dry run, answering as kube's dry run does", async () => {
    const before = await api.ipAddressNames();
    const dry = await api.create(
      "dry",
      { type: "LoadBalancer", externalTrafficPolicy: "Local", ports: [port(80)] },
      "?dryRun=All",
    );
    expect(dry.status).toBe(201);
    expect(dry.body.spec).toMatchObject({
      clusterIP: "10.0.0.0",
      clusterIPs: ["10.0.0.0"],
      healthCheckNodePort: 32770,
      ports: [{ nodePort: 32769, port: 80, protocol: "TCP", targetPort: 80 }],
    });
    expect(await api.ipAddressNames()).toEqual(before);
  });

  it("frees node ports and addresses on type changes and on delete", async () => {
    const np = await api.create("moving", { type: "NodePort", selector: { app: "x" }, ports: [port(80)] });
    const nodePort = np.body.spec.ports[0].nodePort as number;
    const ip = np.body.spec.clusterIP as string;
    const clusterIP = await api.patch("moving", { spec: { type: "ClusterIP" } });
    expect(clusterIP.body.spec.ports).toEqual([{ port: 80, protocol: "TCP", targetPort: 80 }]);
    expect((await api.create("reuse", { type: "NodePort", ports: [{ port: 80, nodePort }] })).status).toBe(201);

    const external = await api.patch("moving", { spec: { type: "ExternalName", externalName: "example.com" } });
    expect(external.body.spec).toEqual({
      externalName: "example.com",
      ports: [{ port: 80, protocol: "TCP", targetPort: 80 }],
      selector: { app: "x" },
      sessionAffinity: "None",
      type: "ExternalName",
    });
    expect((await api.ipAddress(ip)).status).toBe(404);
    const back = await api.patch("moving", { spec: { type: "ClusterIP", externalName: null } });
    const newIP = back.body.spec.clusterIP as string;
    expect((await api.ipAddress(newIP)).body.spec.parentRef.name).toBe("moving");

    expect((await api.remove("reuse")).status).toBe(200);
    expect((await api.remove("moving")).status).toBe(200);
    expect((await api.ipAddress(newIP)).status).toBe(404);
    expect((await api.create("reuse-again", { type: "NodePort", ports: [{ port: 80, nodePort }] })).status).toBe(201);
  });
});

describe("service allocation (dual stack)", () => {
  it("gives PreferDualStack Services one address of each family", async () => {
    const server = await startServer({ listen: false, serviceClusterIPRange: "10.0.0.0/24,fd00::/108" });
    try {
      const api = client(server);
      const { body } = await api.create("both", { ipFamilyPolicy: "PreferDualStack", ports: [port(80)] });
      expect(body.spec.ipFamilies).toEqual(["IPv4", "IPv6"]);
      const [v4, v6] = body.spec.clusterIPs as string[];
      expect(v4?.startsWith("10.0.0.")).toBe(true);
      expect(v6?.startsWith("fd00::")).toBe(true);
      expect((await api.ipAddress(v6 as string)).body.metadata.labels["ipaddress.kubernetes.io/ip-family"]).toBe(
        "IPv6",
      );
    } finally {
      await server.close();
    }
  });

  it("refuses bad flags with kube-apiserver's texts", async () => {
    await expect(startServer({ listen: false, serviceClusterIPRange: "10.0.0.0/24,10.1.0.0/24" })).rejects.toThrow(
      "--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family",
    );
    await expect(startServer({ listen: false, serviceClusterIPRange: "nope" })).rejects.toThrow(
      "service-cluster-ip-range[0] is not a valid cidr",
    );
    await expect(startServer({ listen: false, serviceNodePortRange: "32000-31000" })).rejects.toThrow(
      'invalid argument "32000-31000" for "--service-node-port-range" flag: end port cannot be less than start port: 32000-31000',
    );
  });
});

describe("service allocation across a restart", () => {
  const dir = mkdtempSync(join(tmpdir(), "kapi-service-network-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps node ports and addresses on a persistent store, and the repair pass restores a lost record", async () => {
    const path = join(dir, "kapi.db");
    const first = await startServer({ listen: false, store: SqliteStore.open(path) });
    const created = await client(first).create("np", { type: "NodePort", ports: [port(80)] });
    const nodePort = created.body.spec.ports[0].nodePort as number;
    const ip = created.body.spec.clusterIP as string;
    // Lose the IPAddress record, as a crash between writes could.
    await first.request({ method: "DELETE", path: `/apis/networking.k8s.io/v1/ipaddresses/${ip}` });
    await first.close();

    const second = await startServer({ listen: false, store: SqliteStore.open(path) });
    try {
      const api = client(second);
      const again = await api.create("np2", { type: "NodePort", ports: [{ port: 80, nodePort }] });
      expect(again.body.message).toBe(
        `Service "np2" is invalid: spec.ports[0].nodePort: Invalid value: ${nodePort}: provided port is already allocated`,
      );
      expect((await api.ipAddress(ip)).body.spec.parentRef).toEqual({
        resource: "services",
        namespace: "default",
        name: "np",
      });
    } finally {
      await second.close();
    }
  });
});
