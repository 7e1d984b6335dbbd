// DaemonSets (apps/v1): the selector and template, the update strategy with its RollingUpdate defaults
// (one unavailable pod, no surge), and a selector that may not change once set.
import { type FieldError, invalid, notSupported, required } from "../errors/field-error.js";
import { child } from "../errors/field-path.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import {
  intOrPercentErrors,
  intOrPercentValue,
  nonNegative,
  notOver100Percent,
  semanticEqual,
} from "../validation/field-rules.js";
import { asObject, type JsonObject } from "../validation/walk.js";
import { type PodCapabilities, validatePodTemplateSpec } from "./pod-spec-validation.js";
import { selectorUnchanged, workloadStrategy } from "./workload-strategy.js";
import { controllerPodRules, specOf, templateLabelsMatch, validateWorkloadSelector } from "./workload-validation.js";

function defaultUpdateStrategy(spec: JsonObject): void {
  const updateStrategy = asObject(spec.updateStrategy);
  if (updateStrategy?.type !== "RollingUpdate") return;
  const rollingUpdate = asObject(updateStrategy.rollingUpdate) ?? {};
  rollingUpdate.maxUnavailable ??= 1;
  rollingUpdate.maxSurge ??= 0;
  updateStrategy.rollingUpdate = rollingUpdate;
}

/** ValidateRollingUpdateDaemonSet: exactly one of maxUnavailable and maxSurge is non-zero. */
function validateRollingUpdate(rollingUpdate: JsonObject, path: string): FieldError[] {
  const unavailablePath = child(path, "maxUnavailable");
  const surgePath = child(path, "maxSurge");
  const errs = [
    ...intOrPercentErrors(rollingUpdate.maxUnavailable, unavailablePath),
    ...intOrPercentErrors(rollingUpdate.maxSurge, surgePath),
    ...notOver100Percent(rollingUpdate.maxUnavailable, unavailablePath),
    ...notOver100Percent(rollingUpdate.maxSurge, surgePath),
  ];
  const hasUnavailable = intOrPercentValue(rollingUpdate.maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(rollingUpdate.maxSurge) !== 0;
  if (hasUnavailable && hasSurge) {
    errs.push(invalid(surgePath, rollingUpdate.maxSurge, "may not be set when maxUnavailable is non-zero"));
  } else if (!hasUnavailable && !hasSurge) {
    errs.push(required(unavailablePath, "cannot be 0 when maxSurge is 0"));
  }
  return errs;
}

function validateUpdateStrategy(updateStrategy: JsonObject, path: string): FieldError[] {
  switch (updateStrategy.type) {
    case "OnDelete":
      return [];
    case "RollingUpdate": {
      const rollingUpdate = asObject(updateStrategy.rollingUpdate);
      return rollingUpdate === undefined
        ? [required(child(path, "rollingUpdate"))]
        : validateRollingUpdate(rollingUpdate, child(path, "rollingUpdate"));
    }
    default:
      return [notSupported(path, updateStrategy, ["RollingUpdate", "OnDelete"])];
  }
}

function validateSpec(spec: JsonObject, capabilities: PodCapabilities): FieldError[] {
  const { errs, selector } = validateWorkloadSelector(spec, "empty selector is invalid for daemonset");
  const template = asObject(spec.template) ?? {};
  errs.push(...templateLabelsMatch(template, selector, "spec.template", true));
  errs.push(...validatePodTemplateSpec(template, "spec.template", capabilities));
  errs.push(...controllerPodRules(template, "spec.template", "DaemonSet"));
  errs.push(...nonNegative(spec.minReadySeconds, "spec.minReadySeconds"));
  errs.push(...validateUpdateStrategy(asObject(spec.updateStrategy) ?? {}, "spec.updateStrategy"));
  errs.push(...nonNegative(spec.revisionHistoryLimit, "spec.revisionHistoryLimit"));
  return errs;
}

/** Where apps/v1 keeps the internal spec.templateGeneration, which counts changes of the pod template. */
const templateGenerationKey = "deprecated.daemonset.template.generation";

function templateGeneration(obj: KubeObject): number {
  const value = asObject(asObject(obj.metadata)?.annotations)?.[templateGenerationKey];
  const parsed = typeof value === "string" && /^-?[0-9]+$/.test(value) ? Number(value) : 0;
  return Number.isSafeInteger(parsed) ? parsed : 0;
}

function setTemplateGeneration(obj: KubeObject, generation: number): void {
  const meta = asObject(obj.metadata) ?? {};
  meta.annotations = { ...asObject(meta.annotations), [templateGenerationKey]: String(generation) };
  obj.metadata = meta;
}

export const strategy: Strategy = {
  ...workloadStrategy({
    defaults: (obj) => defaultUpdateStrategy(specOf(obj)),
    validateSpec,
    validateUpdate: selectorUnchanged,
  }),
  // kube's PrepareForCreate starts the template generation at 1; an update keeps the stored one and moves it
  // on when the pod template changes.
  prepareForCreate(obj: KubeObject): void {
    setTemplateGeneration(obj, Math.max(templateGeneration(obj), 1));
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, subresource?: string): void {
    if (subresource !== undefined) return;
    const changed = !semanticEqual(specOf(obj).template, specOf(old).template);
    setTemplateGeneration(obj, templateGeneration(old) + (changed ? 1 : 0));
  },
};
