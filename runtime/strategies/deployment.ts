// Deployments (apps/v1): the selector and its template, the rollout strategy and the counts kube checks
// by hand; the selector may not change once set. Defaults come from the pod-template strategy.
import { type FieldError, forbidden, invalid, notSupported, required } from "../errors/field-error.js";
import { child } from "../errors/field-path.js";
import type { Strategy } from "../registry/strategy.js";
import { intOrPercentErrors, intOrPercentValue, nonNegative, notOver100Percent } from "../validation/field-rules.js";
import { asObject, type JsonObject } from "../validation/walk.js";
import { type PodCapabilities, validatePodTemplateSpec } from "./pod-spec-validation.js";
import { selectorUnchanged, workloadStrategy } from "./workload-strategy.js";
import { controllerPodRules, templateLabelsMatch, validateWorkloadSelector } from "./workload-validation.js";

function validateRollingUpdate(rollingUpdate: JsonObject, path: string): FieldError[] {
  const unavailablePath = child(path, "maxUnavailable");
  const errs = [
    ...intOrPercentErrors(rollingUpdate.maxUnavailable, unavailablePath),
    ...intOrPercentErrors(rollingUpdate.maxSurge, child(path, "maxSurge")),
  ];
  if (intOrPercentValue(rollingUpdate.maxUnavailable) === 0 && intOrPercentValue(rollingUpdate.maxSurge) === 0) {
    errs.push(invalid(unavailablePath, rollingUpdate.maxUnavailable ?? null, "may not be 0 when `maxSurge` is 0"));
  }
  errs.push(...notOver100Percent(rollingUpdate.maxUnavailable, unavailablePath));
  return errs;
}

/** ValidateDeploymentStrategy. */
function validateStrategy(strategy: JsonObject, path: string): FieldError[] {
  const rollingUpdate = asObject(strategy.rollingUpdate);
  switch (strategy.type) {
    case "Recreate":
      return rollingUpdate === undefined
        ? []
        : [forbidden(child(path, "rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'")];
    case "RollingUpdate":
      return rollingUpdate === undefined
        ? [required(child(path, "rollingUpdate"), "this should be defaulted and never be nil")]
        : validateRollingUpdate(rollingUpdate, child(path, "rollingUpdate"));
    default:
      return [notSupported(path, strategy, ["Recreate", "RollingUpdate"])];
  }
}

/** ValidateDeploymentSpec. */
function validateSpec(spec: JsonObject, capabilities: PodCapabilities): FieldError[] {
  const errs = nonNegative(spec.replicas, "spec.replicas");
  const { errs: selectorErrs, selector } = validateWorkloadSelector(
    spec,
    "empty selector is invalid for deployment",
    "invalid label selector",
  );
  errs.push(...selectorErrs);
  const template = asObject(spec.template);
  if (selector !== undefined && template !== undefined) {
    errs.push(...templateLabelsMatch(template, selector, "spec.template"));
    errs.push(...validatePodTemplateSpec(template, "spec.template", capabilities));
    // kube checks a Deployment's template with the ReplicaSet rules, message included.
    errs.push(...controllerPodRules(template, "spec.template", "ReplicaSet"));
  }
  const strategy = asObject(spec.strategy);
  if (strategy !== undefined) errs.push(...validateStrategy(strategy, "spec.strategy"));
  errs.push(...nonNegative(spec.minReadySeconds, "spec.minReadySeconds"));
  errs.push(...nonNegative(spec.revisionHistoryLimit, "spec.revisionHistoryLimit"));
  const deadline = spec.progressDeadlineSeconds;
  if (typeof deadline === "number") {
    errs.push(...nonNegative(deadline, "spec.progressDeadlineSeconds"));
    const minReady = typeof spec.minReadySeconds === "number" ? spec.minReadySeconds : 0;
    if (deadline <= minReady) {
      errs.push(invalid("spec.progressDeadlineSeconds", deadline, "must be greater than minReadySeconds"));
    }
  }
  return errs;
}

export const strategy: Strategy = workloadStrategy({ validateSpec, validateUpdate: selectorUnchanged });
