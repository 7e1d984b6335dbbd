import type { Emitter } from "./emitter.js";

export const registryEmitter: Emitter = {
  name: "registry",
  emit: () => ({ files: [] }),
};
