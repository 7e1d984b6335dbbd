// PersistentVolumeClaims (core/v1): no generation, and a new claim is Pending, as kube's defaults make every
// claim it reads back (the phase default of claim templates is the schema's).
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";

export const strategy: Strategy = {
  tracksGeneration: false,
  prepareForCreate(obj: KubeObject): void {
    obj.status = { phase: "Pending" };
  },
};
