// PersistentVolumes (core/v1): no generation, a new volume starts Pending with its phase's transition time
// (kube's PrepareForCreate), and a hostPath source gets its empty type written (SetDefaults_HostPathVolumeSource
// sets the pointer).
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { asObject } from "../validation/walk.js";

export const strategy: Strategy = {
  tracksGeneration: false,
  default(obj: KubeObject): void {
    const hostPath = asObject(asObject(obj.spec)?.hostPath);
    if (hostPath !== undefined) hostPath.type ??= "";
  },
  prepareForCreate(obj: KubeObject): void {
    const created = asObject(obj.metadata)?.creationTimestamp;
    obj.status = { phase: "Pending", ...(typeof created === "string" && { lastPhaseTransitionTime: created }) };
  },
};
