import type { Emitter } from "./emitter.js";

export const protoEmitter: Emitter = {
  name: "proto",
  emit: () => ({ files: [] }),
};
