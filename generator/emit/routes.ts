import type { Emitter } from "./emitter.js";

export const routesEmitter: Emitter = {
  name: "routes",
  emit: () => ({ files: [] }),
};
