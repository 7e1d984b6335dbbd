// kube's ResourceClaim quota evaluator: `count/resourceclaims.resource.k8s.io` per claim and
// `<class>.deviceclass.resource.k8s.io/devices`, the devices each request asks of a class (All counts as
// the most one allocation may hold; of a firstAvailable list the largest alternative per class counts).

import { addQuantity, compareQuantity, countQuantity, type Quantity } from "../validation/quantity-arithmetic.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import { objectCountName, type QuotaEvaluator } from "./evaluator.js";
import type { ResourceList } from "./resource-list.js";

const claimCountName = objectCountName("resource.k8s.io", "resourceclaims");
const perClassSuffix = ".deviceclass.resource.k8s.io/devices";
/** resourceapi.AllocationResultsMaxSize: what an `All` request counts. */
const allocationResultsMaxSize = 32;

function devicesOf(request: JsonObject): number {
  if (request.allocationMode === "All") return allocationResultsMaxSize;
  if (request.allocationMode === "ExactCount" || request.allocationMode === undefined) {
    return typeof request.count === "number" ? request.count : 0;
  }
  return 0;
}

function charge(usage: ResourceList, name: string, q: Quantity): void {
  const current = usage.get(name);
  usage.set(name, current === undefined ? q : addQuantity(current, q));
}

function claimUsage(claim: JsonObject): ResourceList {
  const usage: ResourceList = new Map([[claimCountName, countQuantity(1)]]);
  const devices = asObject(asObject(claim.spec)?.devices) ?? {};
  for (const item of listItems(devices.requests)) {
    const request = asObject(item) ?? {};
    const alternatives = listItems(request.firstAvailable);
    if (alternatives.length > 0) {
      const largest = new Map<string, Quantity>();
      for (const sub of alternatives) {
        const subrequest = asObject(sub) ?? {};
        const name = `${String(subrequest.deviceClassName ?? "")}${perClassSuffix}`;
        const q = countQuantity(devicesOf(subrequest));
        const current = largest.get(name);
        if (current === undefined || compareQuantity(q, current) > 0) largest.set(name, q);
      }
      for (const [name, q] of largest) charge(usage, name, q);
      continue;
    }
    // v1 nests the request in `exactly`; the beta versions carry its fields on the request itself.
    const exactly = asObject(request.exactly) ?? (typeof request.deviceClassName === "string" ? request : undefined);
    if (exactly === undefined) continue;
    charge(usage, `${String(exactly.deviceClassName ?? "")}${perClassSuffix}`, countQuantity(devicesOf(exactly)));
  }
  return usage;
}

export const resourceClaimEvaluator: QuotaEvaluator = {
  group: "resource.k8s.io",
  resource: "resourceclaims",
  scoped: false,
  handles: (r) => r.subresource === "" && (r.operation === "CREATE" || r.operation === "UPDATE"),
  matchingResources: (input) => input.filter((name) => name === claimCountName || name.endsWith(perClassSuffix)),
  matchesScope: () => false,
  usage: claimUsage,
  constraints: () => undefined,
};
