import type { Emitter } from "./emitter.js";

export const validatorsEmitter: Emitter = {
  name: "validators",
  emit: () => ({ files: [] }),
};
