// RuntimeClasses (node.k8s.io/v1): a PUT to a missing name creates one, and an update of an existing one must
// name the resourceVersion it replaces, as kube's runtimeclass strategy says.
import type { Strategy } from "../registry/strategy.js";

export const strategy: Strategy = {
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
};
