import type { Emitter } from "./emitter.js";

export const discoveryEmitter: Emitter = {
  name: "discovery",
  emit: () => ({ files: [] }),
};
