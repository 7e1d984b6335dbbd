// ServiceCIDR and IPAddress writes as kube-apiserver v1.36.2 answers them (texts read from it), and the
// parsing underneath: strict IP and CIDR forms, the service range and node port range flags.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseServeFlags } from "../../../runtime/cli/serve-flags.js";
import { type InProcessServer, startServer } from "../../../runtime/server/start-server.js";
import { canonicalIP, parseCIDR } from "../../../runtime/service-network/ip-range.js";
import { cidrMessages, ipMessages } from "../../../runtime/service-network/ip-validation.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read field by field
type Json = Record<string, any>;

describe("ServiceCIDR and IPAddress validation", () => {
  let server: InProcessServer;
  const send = async (method: string, path: string, body?: object, type?: string) => {
    const response = await server.request({
      method,
      path,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      headers: { "content-type": type ?? "application/json" },
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const ipAddress = (name: string, parentRef: object) =>
    send("POST", "/apis/networking.k8s.io/v1/ipaddresses?dryRun=All", {
      apiVersion: "networking.k8s.io/v1",
      kind: "IPAddress",
      metadata: { name },
      spec: { parentRef },
    });
  const serviceCIDR = (name: string, spec: object, status?: object) =>
    send("POST", "/apis/networking.k8s.io/v1/servicecidrs", {
      apiVersion: "networking.k8s.io/v1",
      kind: "ServiceCIDR",
      metadata: { name },
      spec,
      ...(status === undefined ? {} : { status }),
    });
  const ref = { resource: "services", name: "x", namespace: "ns" };

  beforeAll(async () => {
    server = await startServer({ listen: false });
  });
  afterAll(() => server.close());

  it("names IPAddresses by an address in canonical form", async () => {
    expect((await ipAddress("foo", ref)).body.message).toBe(
      'IPAddress.networking.k8s.io "foo" is invalid: metadata.name: Invalid value: "foo": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    );
    expect((await ipAddress("10.0.0.010", ref)).body.message).toBe(
      'IPAddress.networking.k8s.io "10.0.0.010" is invalid: metadata.name: Invalid value: "10.0.0.010": must not have leading 0s',
    );
    expect((await ipAddress("fd00::0:1", ref)).body.message).toBe(
      'IPAddress.networking.k8s.io "fd00::0:1" is invalid: metadata.name: Invalid value: "fd00::0:1": must be in canonical form ("fd00::1")',
    );
    expect((await ipAddress("fd00::1", ref)).status).toBe(201);
    expect((await ipAddress("10.0.0.78", { resource: "", name: "" })).body.message).toBe(
      'IPAddress.networking.k8s.io "10.0.0.78" is invalid: [spec.parentRef.resource: Required value, spec.parentRef.name: Required value]',
    );
  });

  it("keeps an IPAddress's parentRef", async () => {
    const created = await send("POST", "/apis/networking.k8s.io/v1/ipaddresses", {
      apiVersion: "networking.k8s.io/v1",
      kind: "IPAddress",
      metadata: { name: "10.0.0.79" },
      spec: { parentRef: { resource: "services", name: "a-x", namespace: "a-ns1" } },
    });
    expect(created.status).toBe(201);
    const patched = await send(
      "PATCH",
      "/apis/networking.k8s.io/v1/ipaddresses/10.0.0.79",
      { spec: { parentRef: { name: "a-y" } } },
      "application/merge-patch+json",
    );
    expect(patched.body.message).toBe(
      'IPAddress.networking.k8s.io "10.0.0.79" is invalid: spec.parentRef: Invalid value: {"Group":"","Resource":"services","Namespace":"a-ns1","Name":"a-y"}: field is immutable',
    );
  });

  it("checks ServiceCIDR ranges, starts the status empty and keeps no generation", async () => {
    const message = async (spec: object) => (await serviceCIDR("a-c", spec)).body.message;
    expect(await message({ cidrs: ["10.9.0.0/16", "10.8.0.0/16", "x"] })).toBe(
      'ServiceCIDR.networking.k8s.io "a-c" is invalid: spec.cidrs: Invalid value: {"CIDRs":["10.9.0.0/16","10.8.0.0/16","x"]}: may only hold up to 2 values',
    );
    expect(await message({ cidrs: ["10.9.0.1/16", "x"] })).toBe(
      'ServiceCIDR.networking.k8s.io "a-c" is invalid: [spec.cidrs[0]: Invalid value: "10.9.0.1/16": must not have bits set beyond the prefix length, spec.cidrs[1]: Invalid value: "x": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)]',
    );
    expect(await message({})).toBe(
      'ServiceCIDR.networking.k8s.io "a-c" is invalid: spec.cidrs: Required value: at least one CIDR required',
    );
    expect(await message({ cidrs: ["10.9.0.0/16", "10.8.0.0/16"] })).toBe(
      'ServiceCIDR.networking.k8s.io "a-c" is invalid: spec.cidrs: Invalid value: ["10.9.0.0/16","10.8.0.0/16"]: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64',
    );
    const condition = {
      type: "Ready",
      status: "True",
      reason: "x",
      message: "",
      lastTransitionTime: "2026-01-01T00:00:00Z",
    };
    const created = await serviceCIDR("a-c", { cidrs: ["10.9.0.0/16"] }, { conditions: [condition] });
    expect(created.body.status).toEqual({});
    expect(created.body.metadata.generation).toBeUndefined();
    const path = "/apis/networking.k8s.io/v1/servicecidrs/a-c";
    const patch = (cidrs: string[]) => send("PATCH", path, { spec: { cidrs } }, "application/merge-patch+json");
    expect((await patch(["10.8.0.0/16"])).body.message).toBe(
      'ServiceCIDR.networking.k8s.io "a-c" is invalid: spec.cidrs[0]: Invalid value: "10.8.0.0/16": field is immutable',
    );
    expect((await patch(["10.9.0.0/16", "fd00::/108"])).body.spec.cidrs).toEqual(["10.9.0.0/16", "fd00::/108"]);
    expect((await patch(["10.9.0.0/16"])).body.message).toBe(
      'ServiceCIDR.networking.k8s.io "a-c" is invalid: spec.cidrs: Invalid value: ["10.9.0.0/16"]: field is immutable',
    );
  });
});

describe("addresses, ranges and flags", () => {
  it("parses and prints addresses and ranges as Go does", () => {
    expect(canonicalIP("FD00:0:0::1")).toBe("fd00::1");
    expect(canonicalIP("10.0.0.01")).toBeUndefined();
    expect(parseCIDR("10.0.0.7/24")?.cidr).toBe("10.0.0.0/24");
    expect(parseCIDR("fd00::1/108")?.cidr).toBe("fd00::/108");
    expect(ipMessages("::ffff:1.2.3.4")).toEqual(["must not be an IPv4-mapped IPv6 address"]);
    expect(cidrMessages("10.0.0.0/024")).toEqual(["must not have leading 0s in IP or prefix length"]);
    expect(cidrMessages("FD00::/108")).toEqual(['must be in canonical form ("fd00::/108")']);
  });

  it("reads kapi serve's service network flags", () => {
    const options = parseServeFlags([
      "--service-cluster-ip-range=10.96.0.0/16,fd00::/108",
      "--service-node-port-range=31000+100",
      "--advertise-address=192.0.2.7",
    ]);
    expect(options.serviceNetwork).toEqual({
      serviceClusterIPRange: "10.96.0.0/16,fd00::/108",
      serviceNodePortRange: "31000+100",
      advertiseAddress: "192.0.2.7",
    });
    expect(() => parseServeFlags(["--service-node-port-range=a-b"])).toThrow(
      'invalid argument "a-b" for "--service-node-port-range" flag: strconv.Atoi: parsing "a": invalid syntax',
    );
    expect(() => parseServeFlags(["--advertise-address=x"])).toThrow(
      'invalid argument "x" for "--advertise-address" flag: failed to parse IP: "x"',
    );
    expect(() => parseServeFlags(["--service-cluster-ip-range=10.0.0.0/24,10.1.0.0/24,fd00::/108"])).toThrow(
      "--service-cluster-ip-range must not contain more than two entries",
    );
  });
});
