// The request pipeline: one ordered list of named stages, outermost first (docs/server.md).
import type { RequestContext, Stage } from "./context.js";
import { audit } from "./stages/audit.js";
import { authentication } from "./stages/authentication.js";
import { authorization } from "./stages/authorization.js";
import { handler } from "./stages/handler.js";
import { impersonation } from "./stages/impersonation.js";
import { limits } from "./stages/limits.js";
import { requestInfo } from "./stages/request-info.js";

export const pipeline: readonly Stage[] = [
  requestInfo,
  authentication,
  audit,
  impersonation,
  limits,
  authorization,
  handler,
];

/** Runs `stages` in order, each handing inward through `next`. */
export function runStages(stages: readonly Stage[], ctx: RequestContext): Promise<void> {
  const step = (i: number): Promise<void> => {
    const stage = stages[i];
    return stage ? stage.run(ctx, () => step(i + 1)) : Promise.resolve();
  };
  return step(0);
}
