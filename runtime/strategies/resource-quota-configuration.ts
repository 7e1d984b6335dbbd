// ResourceQuota's admission configuration (apiserver.config.k8s.io/v1 ResourceQuotaConfiguration,
// resourcequota.admission.k8s.io Configuration): kube's ValidateConfiguration, as the plugin's loader applies it.
import { validateLimitedResources } from "../admission/resource-quota/quota-configuration-validation.js";
import type { FieldError } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { asObject, listItems } from "../validation/walk.js";

function validate(obj: KubeObject): FieldError[] {
  return validateLimitedResources(listItems(obj.limitedResources).map((item) => asObject(item) ?? {}));
}

export const strategy: Strategy = { validate };
