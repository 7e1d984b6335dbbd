// The request pipeline: one ordered list of named stages, outermost first, in kube-apiserver's order
// (docs/server.md). The request body is read only after authorization, as kube's handlers read it.
import type { RequestContext, Stage } from "./context.js";
import { audit } from "./stages/audit.js";
import { authentication } from "./stages/authentication.js";
import { authorization } from "./stages/authorization.js";
import { handler } from "./stages/handler.js";
import { impersonation } from "./stages/impersonation.js";
import { maxInFlight } from "./stages/max-in-flight.js";
import { requestBody } from "./stages/request-body.js";
import { requestInfo } from "./stages/request-info.js";
import { requestTimeout } from "./stages/request-timeout.js";
import { waitGroup } from "./stages/wait-group.js";

export const pipeline: readonly Stage[] = [
  requestInfo,
  waitGroup,
  requestTimeout,
  authentication,
  audit,
  impersonation,
  maxInFlight,
  authorization,
  requestBody,
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
