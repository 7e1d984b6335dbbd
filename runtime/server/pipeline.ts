// The request pipeline: one ordered list of named stages, outermost first, in kube-apiserver's order
// (docs/server.md). The request body is read only after authorization, as kube's handlers read it.
import type { RequestContext, Stage } from "./context.js";
import { audit, auditInit } from "./stages/audit-stage.js";
import { authentication } from "./stages/authentication-stage.js";
import { authorization } from "./stages/authorization-stage.js";
import { handler } from "./stages/handler-stage.js";
import { impersonation } from "./stages/impersonation-stage.js";
import { maxInFlight } from "./stages/max-in-flight-stage.js";
import { metrics } from "./stages/metrics-stage.js";
import { priorityAndFairness } from "./stages/priority-and-fairness-stage.js";
import { requestBody } from "./stages/request-body-stage.js";
import { requestInfo } from "./stages/request-info-stage.js";
import { requestTimeout } from "./stages/request-timeout-stage.js";
import { waitGroup } from "./stages/wait-group-stage.js";

export const pipeline: readonly Stage[] = [
  requestInfo,
  auditInit,
  waitGroup,
  requestTimeout,
  authentication,
  audit,
  impersonation,
  maxInFlight,
  priorityAndFairness,
  authorization,
  metrics,
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
