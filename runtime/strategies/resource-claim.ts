// ResourceClaims (resource.k8s.io/v1): kube keeps no generation for them, and a request that allocates an
// exact count of devices asks for one unless it says otherwise (SetDefaults_ExactDeviceRequest and
// SetDefaults_DeviceSubRequest; the mode itself is a schema default). Templates share the request defaults.
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";

function defaultCount(request: JsonObject | undefined): void {
  if (request !== undefined && request.allocationMode === "ExactCount") request.count ??= 1;
}

/** The count defaults of a ResourceClaimSpec's device requests. */
export function defaultDeviceRequests(claimSpec: JsonObject | undefined): void {
  for (const item of listItems(asObject(claimSpec?.devices)?.requests)) {
    const request = asObject(item);
    defaultCount(asObject(request?.exactly));
    for (const sub of listItems(request?.firstAvailable)) defaultCount(asObject(sub));
  }
}

export const strategy: Strategy = {
  tracksGeneration: false,
  default(obj: KubeObject): void {
    defaultDeviceRequests(asObject(obj.spec));
  },
};
