// StatefulSets (apps/v1): pod management and update strategy, the selector and template, and the spec
// fields an update may change. A RollingUpdate strategy gets partition 0 when it names none.
import { type FieldError, forbidden, invalid, notSupported, required } from "../errors/field-error.js";
import { child } from "../errors/field-path.js";
import type { Strategy } from "../registry/strategy.js";
import {
  intOrPercentErrors,
  intOrPercentValue,
  nonNegative,
  notOver100Percent,
  semanticEqual,
} from "../validation/field-rules.js";
import { dnsLabelErrors } from "../validation/name-formats.js";
import { validateAnnotations, validateLabels } from "../validation/object-meta.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import { workloadStrategy } from "./workload-strategy.js";
import { controllerPodRules, specOf, templateLabelsMatch, validateWorkloadSelector } from "./workload-validation.js";

/** Spec fields an update may change; everything else is fixed at creation. */
const mutableSpecFields = [
  "replicas",
  "ordinals",
  "template",
  "updateStrategy",
  "revisionHistoryLimit",
  "persistentVolumeClaimRetentionPolicy",
  "minReadySeconds",
];
const forbiddenUpdate =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

function defaultUpdateStrategy(spec: JsonObject): void {
  const updateStrategy = asObject(spec.updateStrategy);
  if (updateStrategy?.type !== "RollingUpdate") return;
  const rollingUpdate = asObject(updateStrategy.rollingUpdate) ?? {};
  rollingUpdate.partition ??= 0;
  updateStrategy.rollingUpdate = rollingUpdate;
}

function validateRollingUpdate(rollingUpdate: JsonObject, path: string): FieldError[] {
  const errs = nonNegative(rollingUpdate.partition, child(path, "partition"));
  const maxUnavailable = rollingUpdate.maxUnavailable;
  if (maxUnavailable !== undefined && maxUnavailable !== null) {
    const unavailablePath = child(path, "maxUnavailable");
    errs.push(...intOrPercentErrors(maxUnavailable, unavailablePath));
    if (intOrPercentValue(maxUnavailable) === 0) errs.push(invalid(unavailablePath, maxUnavailable, "cannot be 0"));
    errs.push(...notOver100Percent(maxUnavailable, unavailablePath));
  }
  return errs;
}

function validateUpdateStrategy(updateStrategy: JsonObject): FieldError[] {
  const path = "spec.updateStrategy";
  const rollingUpdate = asObject(updateStrategy.rollingUpdate);
  switch (updateStrategy.type ?? "") {
    case "":
      return [required(path)];
    case "OnDelete":
      return rollingUpdate === undefined
        ? []
        : [invalid(child(path, "rollingUpdate"), rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'")];
    case "RollingUpdate":
      return rollingUpdate === undefined ? [] : validateRollingUpdate(rollingUpdate, child(path, "rollingUpdate"));
    default:
      return [invalid(path, updateStrategy, "must be 'RollingUpdate' or 'OnDelete'")];
  }
}

function validateRetentionPolicy(policy: JsonObject | undefined): FieldError[] {
  if (policy === undefined) return [];
  const errs: FieldError[] = [];
  for (const field of ["whenDeleted", "whenScaled"]) {
    const value = policy[field] ?? "";
    if (value !== "Retain" && value !== "Delete") {
      errs.push(notSupported(child("spec.persistentVolumeClaimRetentionPolicy", field), value, ["Retain", "Delete"]));
    }
  }
  return errs;
}

/** ValidateStatefulSetSpec. kube checks only the template's labels and annotations, not its pod spec. */
function validateSpec(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const policy = spec.podManagementPolicy ?? "";
  if (policy === "") errs.push(required("spec.podManagementPolicy"));
  else if (policy !== "OrderedReady" && policy !== "Parallel") {
    errs.push(invalid("spec.podManagementPolicy", policy, "must be 'OrderedReady' or 'Parallel'"));
  }
  errs.push(...validateUpdateStrategy(asObject(spec.updateStrategy) ?? {}));
  errs.push(...validateRetentionPolicy(asObject(spec.persistentVolumeClaimRetentionPolicy)));
  errs.push(...nonNegative(spec.replicas, "spec.replicas"));
  errs.push(...nonNegative(spec.minReadySeconds, "spec.minReadySeconds"));
  errs.push(...nonNegative(asObject(spec.ordinals)?.start, "spec.ordinals.start"));
  // The service name becomes the pods' subdomain.
  if (typeof spec.serviceName === "string" && spec.serviceName !== "") {
    for (const msg of dnsLabelErrors(spec.serviceName)) errs.push(invalid("spec.serviceName", spec.serviceName, msg));
  }
  const { errs: selectorErrs, selector } = validateWorkloadSelector(
    spec,
    "empty selector is invalid for statefulset",
    "",
  );
  errs.push(...selectorErrs);
  const template = asObject(spec.template) ?? {};
  if (selector !== undefined) {
    const meta = asObject(template.metadata) ?? {};
    errs.push(...templateLabelsMatch(template, selector, "spec.template"));
    errs.push(...validateLabels(meta.labels, "spec.template.labels"));
    errs.push(...validateAnnotations(meta.annotations, "spec.template.annotations"));
  }
  errs.push(...controllerPodRules(template, "spec.template", "StatefulSet"));
  return errs;
}

function validateSpecUpdate(spec: JsonObject, old: JsonObject): FieldError[] {
  const fixed = (s: JsonObject): JsonObject =>
    Object.fromEntries(Object.entries(s).filter(([k]) => !mutableSpecFields.includes(k)));
  return semanticEqual(fixed(spec), fixed(old)) ? [] : [forbidden("spec", forbiddenUpdate)];
}

/**
 * apps/v1 always writes serviceName, and its conversion gives every claim template the type of a
 * PersistentVolumeClaim (the claim's own defaults are the schema's).
 */
function defaultClaimTemplates(spec: JsonObject): void {
  spec.serviceName ??= "";
  for (const item of listItems(spec.volumeClaimTemplates)) {
    const claim = asObject(item);
    if (claim === undefined) continue;
    claim.apiVersion = "v1";
    claim.kind = "PersistentVolumeClaim";
  }
}

export const strategy: Strategy = workloadStrategy({
  defaults: (obj) => {
    defaultUpdateStrategy(specOf(obj));
    defaultClaimTemplates(specOf(obj));
  },
  validateSpec,
  validateUpdate: validateSpecUpdate,
});
