// EventRateLimit's Configuration (eventratelimit.admission.k8s.io): kube's ValidateConfiguration, the same
// validation the plugin applies when it loads its file (runtime/admission/event-rate-limit/).
import { decodeLimit, validateLimits } from "../admission/event-rate-limit/event-rate-limit-limits.js";
import type { FieldError } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { listItems } from "../validation/walk.js";

function validate(obj: KubeObject): FieldError[] {
  const limitsValue = obj.limits ?? null;
  return validateLimits(limitsValue, listItems(limitsValue).map(decodeLimit));
}

export const strategy: Strategy = { validate };
