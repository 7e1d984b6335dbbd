// Jobs (batch/v1): the defaults kube computes, the selector it generates from the job's uid unless the
// client manages it (manualSelector), the template rules, what an update may not change, and pods
// orphaned on delete unless the client asks otherwise, as kube keeps for batch/v1.
import { type FieldError, invalid, notSupported, required } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { immutableField, maxInt32, nonNegative } from "../validation/field-rules.js";
import { asObject, type JsonObject } from "../validation/walk.js";
import { type PodCapabilities, validatePodTemplateSpec } from "./pod-spec-validation.js";
import { workloadStrategy } from "./workload-strategy.js";
import { templateLabelsMatch, validateWorkloadSelector } from "./workload-validation.js";

const controllerUidLabel = "batch.kubernetes.io/controller-uid";

/** SetDefaults_Job. */
function defaultJob(obj: KubeObject): void {
  const spec = asObject(obj.spec);
  if (spec === undefined) return;
  if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1;
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex === undefined ? 6 : maxInt32;
  spec.completionMode ??= "NonIndexed";
  spec.suspend ??= false;
  spec.podReplacementPolicy ??= spec.podFailurePolicy === undefined ? "TerminatingOrFailed" : "Failed";
  spec.manualSelector ??= false;
  const labels = asObject(asObject(asObject(spec.template)?.metadata)?.labels);
  const meta = asObject(obj.metadata);
  if (labels !== undefined && meta !== undefined && Object.keys(asObject(meta.labels) ?? {}).length === 0) {
    meta.labels = { ...labels };
  }
}

/** generateSelector: the pods carry the job's name and uid, and the selector picks the uid. */
function generateSelector(obj: KubeObject): void {
  const spec = asObject(obj.spec);
  const meta = asObject(obj.metadata) ?? {};
  if (spec === undefined || spec.manualSelector === true) return;
  const template = asObject(spec.template) ?? {};
  const templateMeta = asObject(template.metadata) ?? {};
  const labels = asObject(templateMeta.labels) ?? {};
  const name = typeof meta.name === "string" ? meta.name : "";
  const uid = typeof meta.uid === "string" ? meta.uid : "";
  for (const k of ["job-name", "batch.kubernetes.io/job-name"]) labels[k] ??= name;
  for (const k of ["controller-uid", controllerUidLabel]) labels[k] ??= uid;
  templateMeta.labels = labels;
  template.metadata = templateMeta;
  spec.template = template;
  const selector = asObject(spec.selector) ?? {};
  const matchLabels = asObject(selector.matchLabels) ?? {};
  matchLabels[controllerUidLabel] ??= uid;
  selector.matchLabels = matchLabels;
  spec.selector = selector;
  // kube defaults every job it reads back, so a job without labels shows its template's, generated ones included.
  if (Object.keys(asObject(meta.labels) ?? {}).length === 0) {
    meta.labels = { ...labels };
    obj.metadata = meta;
  }
}

function validateSpec(spec: JsonObject, capabilities: PodCapabilities): FieldError[] {
  const errs: FieldError[] = [];
  for (const field of [
    "parallelism",
    "completions",
    "activeDeadlineSeconds",
    "backoffLimit",
    "ttlSecondsAfterFinished",
  ]) {
    errs.push(...nonNegative(spec[field], `spec.${field}`));
  }
  const template = asObject(spec.template) ?? {};
  if (spec.selector === undefined || spec.selector === null) errs.push(required("spec.selector"));
  else {
    const { errs: selectorErrs, selector } = validateWorkloadSelector(spec, "empty selector is invalid for job");
    errs.push(...selectorErrs, ...templateLabelsMatch(template, selector, "spec.template"));
  }
  errs.push(...validatePodTemplateSpec(template, "spec.template", capabilities));
  const restartPolicy = asObject(template.spec)?.restartPolicy ?? "";
  if (restartPolicy !== "OnFailure" && restartPolicy !== "Never") {
    errs.push(notSupported("spec.template.spec.restartPolicy", restartPolicy, ["OnFailure", "Never"]));
  }
  return errs;
}

/** The selector and completions are fixed; the template only while the job is suspended. */
function validateSpecUpdate(spec: JsonObject, old: JsonObject): FieldError[] {
  const errs = immutableField(spec.selector, old.selector, "spec.selector");
  if (old.suspend !== true) errs.push(...immutableField(spec.template, old.template, "spec.template"));
  if (spec.completionMode !== "Indexed" || typeof spec.completions !== "number") {
    errs.push(...immutableField(spec.completions, old.completions, "spec.completions"));
  } else if (spec.completions !== spec.parallelism && spec.completions !== old.completions) {
    errs.push(invalid("spec.completions", spec.completions, "can only be modified in tandem with spec.parallelism"));
  }
  return errs;
}

export const strategy: Strategy = {
  ...workloadStrategy({ defaults: defaultJob, validateSpec, validateUpdate: validateSpecUpdate }),
  prepareForCreate: generateSelector,
  defaultPropagationPolicy: "Orphan",
};
