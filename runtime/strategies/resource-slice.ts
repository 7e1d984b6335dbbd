// ResourceSlices (resource.k8s.io/v1): kube starts their generation at 1, and a device taint without a time
// is stamped with the current second when defaulted (SetDefaults_DeviceTaint).
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { formatTime } from "../resources/timestamps.js";
import { asObject, listItems } from "../validation/walk.js";

export const strategy: Strategy = {
  tracksGeneration: true,
  default(obj: KubeObject): void {
    for (const device of listItems(asObject(obj.spec)?.devices)) {
      for (const item of listItems(asObject(device)?.taints)) {
        const taint = asObject(item);
        if (taint !== undefined) taint.timeAdded ??= formatTime(new Date());
      }
    }
  },
};
