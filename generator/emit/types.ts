import type { Emitter } from "./emitter.js";

export const typesEmitter: Emitter = {
  name: "types",
  emit: () => ({ files: [] }),
};
