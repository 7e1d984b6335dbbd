// Where RBAC will decide; the only authenticated identity so far is the admin, who may do everything.
import type { Stage } from "../context.js";

export const authorization: Stage = {
  name: "authorization",
  run: (_ctx, next) => next(),
};
