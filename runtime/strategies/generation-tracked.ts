// Kinds without a status subresource whose kube strategy still starts metadata.generation at 1 on create
// (IngressClass, DeviceClass), with nothing else to say about them.
import type { Strategy } from "../registry/strategy.js";

export const strategy: Strategy = {
  tracksGeneration: true,
};
