import { describe, expect, it } from "vitest";
import { strategy } from "../../../runtime/strategies/service.js";
import { created, createErrors, type Kind, strategyOf, updated, updateErrors } from "./write-path.js";

const apply = (spec: Record<string, unknown>): unknown => {
  const svc = { spec };
  strategy.default?.(svc);
  return svc.spec;
};

describe("service strategy", () => {
  // IP families are the service network's (allocation, test/runtime/service-network/), not defaults.
  it("ClusterIP: target ports, traffic policy", () => {
    expect(
      apply({
        ports: [{ port: 80 }, { port: 443, targetPort: "https" }, { port: 53, protocol: "UDP", targetPort: 0 }],
      }),
    ).toEqual({
      type: "ClusterIP",
      ports: [
        { port: 80, protocol: "TCP", targetPort: 80 },
        { port: 443, protocol: "TCP", targetPort: "https" },
        { port: 53, protocol: "UDP", targetPort: 53 },
      ],
      internalTrafficPolicy: "Cluster",
    });
  });

  it("LoadBalancer with ClientIP affinity", () => {
    expect(apply({ type: "LoadBalancer", sessionAffinity: "ClientIP" })).toEqual({
      type: "LoadBalancer",
      sessionAffinity: "ClientIP",
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
      externalTrafficPolicy: "Cluster",
      allocateLoadBalancerNodePorts: true,
      internalTrafficPolicy: "Cluster",
    });
  });

  it("ExternalName gets no traffic policy or IP families", () => {
    expect(apply({ type: "ExternalName", externalName: "example.com" })).toEqual({
      type: "ExternalName",
      externalName: "example.com",
    });
  });
});

describe("service strategy: validation and updates", () => {
  const Service: Kind = ["", "v1", "Service"];
  const service = (spec: Record<string, unknown>): Record<string, unknown> => ({
    metadata: { name: "web", namespace: "default" },
    spec,
  });

  it("accepts a valid service and starts with an empty load balancer status", () => {
    const svc = created(Service, service({ selector: { app: "web" }, ports: [{ port: 80 }] }));
    expect(svc.status).toEqual({ loadBalancer: {} });
    expect(createErrors(Service, service({ selector: { app: "web" }, ports: [{ port: 80 }] }))).toEqual([]);
  });

  it("requires ports, named ones when there are several, and valid numbers", () => {
    expect(createErrors(Service, service({}))).toEqual(["spec.ports: Required value"]);
    expect(
      createErrors(Service, service({ ports: [{ port: 80 }, { port: 443, name: "https", targetPort: 0x10000 }] })),
    ).toEqual([
      "spec.ports[0].name: Required value",
      "spec.ports[1].targetPort: Invalid value: 65536: must be between 1 and 65535, inclusive",
    ]);
    expect(
      createErrors(
        Service,
        service({
          ports: [
            { port: 80, name: "a" },
            { port: 81, name: "a", targetPort: "http--x" },
          ],
        }),
      ),
    ).toEqual([
      'spec.ports[1].name: Duplicate value: "a"',
      'spec.ports[1].targetPort: Invalid value: "http--x": must not contain consecutive hyphens',
    ]);
  });

  it("checks type-specific fields", () => {
    expect(createErrors(Service, service({ type: "ClusterIP", ports: [{ port: 80, nodePort: 30080 }] }))).toEqual([
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
    ]);
    expect(createErrors(Service, service({ type: "ExternalName" }))).toEqual(["spec.externalName: Required value"]);
    expect(createErrors(Service, service({ type: "NodePort", clusterIP: "None", ports: [{ port: 80 }] }))).toEqual([
      "spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for NodePort services",
    ]);
    expect(createErrors(Service, service({ clusterIP: "10.0.0.300", ports: [{ port: 80 }] }))).toEqual([
      'spec.clusterIPs[0]: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
  });

  it("keeps allocated values a client leaves out, and the cluster IP once set", () => {
    const old = created(
      Service,
      service({ type: "NodePort", clusterIP: "10.96.0.10", ports: [{ name: "http", port: 80, nodePort: 30080 }] }),
    );
    const next = updated(Service, service({ type: "NodePort", ports: [{ name: "http", port: 80 }] }), old);
    expect(next.spec).toMatchObject({
      clusterIP: "10.96.0.10",
      clusterIPs: ["10.96.0.10"],
      ports: [{ name: "http", port: 80, nodePort: 30080 }],
    });
    expect(
      updateErrors(Service, service({ type: "NodePort", clusterIP: "10.96.0.11", ports: [{ port: 80 }] }), old),
    ).toEqual(['spec.clusterIPs[0]: Invalid value: ["10.96.0.11"]: may not change once set']);
  });

  it("drops what a new type does not use", () => {
    const old = created(Service, service({ type: "NodePort", ports: [{ port: 80, nodePort: 30080 }] }));
    const next = updated(
      Service,
      { ...structuredClone(old), spec: { ...(old.spec as object), type: "ClusterIP" } },
      old,
    );
    expect(next.spec).not.toHaveProperty("externalTrafficPolicy");
    expect((next.spec as { ports: object[] }).ports[0]).not.toHaveProperty("nodePort");
    expect(
      updateErrors(Service, { ...structuredClone(old), spec: { ...(old.spec as object), type: "ClusterIP" } }, old),
    ).toEqual([]);
  });

  it("answers a delete with the deleted service", () => {
    expect(strategyOf(Service).returnDeletedObject).toBe(true);
  });
});
