// The shape every workload strategy shares: the pod-template defaults plus the kind's own, the kind's
// spec rules on every write of the main resource, and its rules about a change on updates. Status
// updates are the controllers' and are not checked here.
import type { FieldError } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy, WriteEnvironment } from "../registry/strategy.js";
import { immutableField } from "../validation/field-rules.js";
import type { JsonObject } from "../validation/walk.js";
import { type PodCapabilities, podCapabilities } from "./pod-spec-validation.js";
import { strategy as podTemplate } from "./pod-template.js";
import { specOf } from "./workload-validation.js";

export interface WorkloadRules {
  /** Defaults beyond the pod template's. */
  defaults?(obj: KubeObject): void;
  validateSpec(spec: JsonObject, capabilities: PodCapabilities): FieldError[];
  validateUpdate?(spec: JsonObject, old: JsonObject): FieldError[];
}

/** apps/v1 workloads may not change their selector once created. */
export function selectorUnchanged(spec: JsonObject, old: JsonObject): FieldError[] {
  return immutableField(spec.selector, old.selector, "spec.selector");
}

export function workloadStrategy(rules: WorkloadRules): Strategy {
  return {
    default(obj: KubeObject): void {
      podTemplate.default?.(obj);
      rules.defaults?.(obj);
    },
    validate(obj: KubeObject, old?: KubeObject, subresource?: string, env?: WriteEnvironment): FieldError[] {
      if (subresource === "status") return [];
      const spec = specOf(obj);
      const errs = rules.validateSpec(spec, podCapabilities(env));
      if (old !== undefined && rules.validateUpdate !== undefined)
        errs.push(...rules.validateUpdate(spec, specOf(old)));
      return errs;
    },
  };
}
