// kube's service quota evaluator: `count/services` and `services` per Service, `services.loadbalancers` for
// type LoadBalancer, `services.nodeports` for the ports a NodePort or LoadBalancer Service allocates.

import { countQuantity, zeroQuantity } from "../validation/quantity-arithmetic.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import { objectCountName, type QuotaEvaluator } from "./evaluator.js";
import type { ResourceList } from "./resource-list.js";

const serviceCountName = objectCountName("", "services");
const serviceResources = [serviceCountName, "services", "services.nodeports", "services.loadbalancers"];

function serviceUsage(service: JsonObject): ResourceList {
  const spec = asObject(service.spec) ?? {};
  const ports = listItems(spec.ports);
  const usage: ResourceList = new Map([
    [serviceCountName, countQuantity(1)],
    ["services", countQuantity(1)],
    ["services.loadbalancers", zeroQuantity],
    ["services.nodeports", zeroQuantity],
  ]);
  if (spec.type === "NodePort") usage.set("services.nodeports", countQuantity(ports.length));
  if (spec.type === "LoadBalancer") {
    const withNodePorts = ports.filter((p) => {
      const nodePort = asObject(p)?.nodePort;
      return typeof nodePort === "number" && nodePort !== 0;
    });
    const allocated = spec.allocateLoadBalancerNodePorts === false ? withNodePorts.length : ports.length;
    usage.set("services.nodeports", countQuantity(allocated));
    usage.set("services.loadbalancers", countQuantity(1));
  }
  return usage;
}

export const serviceEvaluator: QuotaEvaluator = {
  group: "",
  resource: "services",
  scoped: false,
  handles: (r) => r.subresource === "" && (r.operation === "CREATE" || r.operation === "UPDATE"),
  matchingResources: (input) => input.filter((name) => serviceResources.includes(name)),
  matchesScope: () => false,
  usage: serviceUsage,
  constraints: () => undefined,
};
