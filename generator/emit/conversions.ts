import type { Emitter } from "./emitter.js";

export const conversionsEmitter: Emitter = {
  name: "conversions",
  emit: () => ({ files: [] }),
};
