import type { Emitter } from "./emitter.js";

export const openapiEmitter: Emitter = {
  name: "openapi",
  emit: () => ({ files: [] }),
};
