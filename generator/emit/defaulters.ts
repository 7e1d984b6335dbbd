import type { Emitter } from "./emitter.js";

export const defaultersEmitter: Emitter = {
  name: "defaulters",
  emit: () => ({ files: [] }),
};
