// ReplicationControllers (core/v1): the selector and labels default to the template's labels; the
// selector may not be empty and must select the template. Deleting one orphans its pods unless the
// client asks otherwise, as kube keeps for core/v1.
import { type FieldError, required } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { nonNegative } from "../validation/field-rules.js";
import { asObject, type JsonObject } from "../validation/walk.js";
import { type PodCapabilities, validatePodTemplateSpec } from "./pod-spec-validation.js";
import { workloadStrategy } from "./workload-strategy.js";
import { controllerPodRules, mapSelector, templateLabelsMatch } from "./workload-validation.js";

function nonEmpty(map: unknown): boolean {
  return Object.keys(asObject(map) ?? {}).length > 0;
}

/** SetDefaults_ReplicationController: selector and labels from the template's labels. */
function defaultFromTemplate(obj: KubeObject): void {
  const spec = asObject(obj.spec);
  const labels = asObject(asObject(asObject(spec?.template)?.metadata)?.labels);
  if (spec === undefined || labels === undefined) return;
  if (!nonEmpty(spec.selector)) spec.selector = { ...labels };
  const meta = asObject(obj.metadata);
  if (meta !== undefined && !nonEmpty(meta.labels)) meta.labels = { ...labels };
}

function validateSpec(spec: JsonObject, capabilities: PodCapabilities): FieldError[] {
  const errs = nonNegative(spec.minReadySeconds, "spec.minReadySeconds");
  if (!nonEmpty(spec.selector)) errs.push(required("spec.selector"));
  errs.push(...nonNegative(spec.replicas, "spec.replicas"));
  const template = asObject(spec.template);
  if (template === undefined) return [...errs, required("spec.template")];
  const selector = mapSelector(spec.selector);
  if (nonEmpty(spec.selector)) errs.push(...templateLabelsMatch(template, selector, "spec.template"));
  errs.push(...validatePodTemplateSpec(template, "spec.template", capabilities));
  errs.push(...controllerPodRules(template, "spec.template", "ReplicationController"));
  return errs;
}

export const strategy: Strategy = {
  ...workloadStrategy({ defaults: defaultFromTemplate, validateSpec }),
  defaultPropagationPolicy: "Orphan",
};
