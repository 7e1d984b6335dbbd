// Where Impersonate-* headers will replace the caller's identity; kapi honours none yet.
import type { Stage } from "../context.js";

export const impersonation: Stage = {
  name: "impersonation",
  run: (_ctx, next) => next(),
};
