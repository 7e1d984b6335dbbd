// Kinds whose PUT to a missing name creates the object (kube's AllowCreateOnUpdate) and that need nothing
// else: Endpoints, written by clients that do not care whether the object exists yet.
import type { Strategy } from "../registry/strategy.js";

export const strategy: Strategy = {
  allowCreateOnUpdate: true,
};
