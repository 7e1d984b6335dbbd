// ReplicaSets (apps/v1): counts, the selector and the template it must select; the selector may not
// change once set. Defaults come from the pod-template strategy.
import type { FieldError } from "../errors/field-error.js";
import type { Strategy } from "../registry/strategy.js";
import { nonNegative } from "../validation/field-rules.js";
import { asObject, type JsonObject } from "../validation/walk.js";
import { type PodCapabilities, validatePodTemplateSpec } from "./pod-spec-validation.js";
import { selectorUnchanged, workloadStrategy } from "./workload-strategy.js";
import { controllerPodRules, templateLabelsMatch, validateWorkloadSelector } from "./workload-validation.js";

function validateSpec(spec: JsonObject, capabilities: PodCapabilities): FieldError[] {
  const errs = [
    ...nonNegative(spec.replicas, "spec.replicas"),
    ...nonNegative(spec.minReadySeconds, "spec.minReadySeconds"),
  ];
  // kube's ReplicaSet message names deployments.
  const { errs: selectorErrs, selector } = validateWorkloadSelector(
    spec,
    "empty selector is invalid for deployment",
    "invalid label selector",
  );
  errs.push(...selectorErrs);
  const template = asObject(spec.template) ?? {};
  if (selector !== undefined) {
    errs.push(...templateLabelsMatch(template, selector, "spec.template"));
    errs.push(...validatePodTemplateSpec(template, "spec.template", capabilities));
    errs.push(...controllerPodRules(template, "spec.template", "ReplicaSet"));
  }
  return errs;
}

export const strategy: Strategy = workloadStrategy({ validateSpec, validateUpdate: selectorUnchanged });
