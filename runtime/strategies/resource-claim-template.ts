// ResourceClaimTemplates (resource.k8s.io/v1): the claim spec they carry gets a claim's request defaults.
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { asObject } from "../validation/walk.js";
import { defaultDeviceRequests } from "./resource-claim.js";

export const strategy: Strategy = {
  default(obj: KubeObject): void {
    defaultDeviceRequests(asObject(asObject(obj.spec)?.spec));
  },
};
