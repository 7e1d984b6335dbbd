// Where audit events will be recorded around the rest of the pipeline; kapi keeps no audit log yet.
import type { Stage } from "../context.js";

export const audit: Stage = {
  name: "audit",
  run: (_ctx, next) => next(),
};
