// CronJobs (batch/v1): the pod template defaults and rules every template gets, and the rule kube
// applies to the jobs it will create: their pods restart on failure or never.
import { type FieldError, notSupported } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy, WriteEnvironment } from "../registry/strategy.js";
import { asObject } from "../validation/walk.js";
import { strategy as podTemplate } from "./pod-template.js";

function jobRestartPolicy(obj: KubeObject): FieldError[] {
  const jobSpec = asObject(asObject(asObject(obj.spec)?.jobTemplate)?.spec);
  const podSpec = asObject(asObject(jobSpec?.template)?.spec);
  if (podSpec === undefined) return [];
  const restartPolicy = podSpec.restartPolicy ?? "";
  return restartPolicy === "OnFailure" || restartPolicy === "Never"
    ? []
    : [notSupported("spec.jobTemplate.spec.template.spec.restartPolicy", restartPolicy, ["OnFailure", "Never"])];
}

export const strategy: Strategy = {
  default(obj: KubeObject): void {
    podTemplate.default?.(obj);
    // kube writes suspend: false; the generated defaulters leave zero values out.
    const spec = asObject(obj.spec);
    if (spec !== undefined) spec.suspend ??= false;
  },
  validate(obj: KubeObject, old?: KubeObject, subresource?: string, env?: WriteEnvironment): FieldError[] {
    if (subresource === "status") return [];
    return [...(podTemplate.validate?.(obj, old, subresource, env) ?? []), ...jobRestartPolicy(obj)];
  },
};
