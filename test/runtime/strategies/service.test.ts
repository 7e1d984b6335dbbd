import { describe, expect, it } from "vitest";
import { strategy } from "../../../runtime/strategies/service.js";

const apply = (spec: Record<string, unknown>): unknown => {
  const svc = { spec };
  strategy.default?.(svc);
  return svc.spec;
};

describe("service strategy", () => {
  it("ClusterIP: target ports, traffic policy, IP families", () => {
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
      ipFamilyPolicy: "SingleStack",
      ipFamilies: ["IPv4"],
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
      ipFamilyPolicy: "SingleStack",
      ipFamilies: ["IPv4"],
    });
  });

  it("ExternalName gets no traffic policy or IP families", () => {
    expect(apply({ type: "ExternalName", externalName: "example.com" })).toEqual({
      type: "ExternalName",
      externalName: "example.com",
    });
  });
});
