// Kinds with a status subresource whose kube strategy never sets metadata.generation (ServiceCIDR,
// VolumeAttachment, APIService, CertificateSigningRequest): their objects carry none.
import type { Strategy } from "../registry/strategy.js";

export const strategy: Strategy = {
  tracksGeneration: false,
};
