// PodTolerationRestriction's Configuration (podtolerationrestriction.admission.k8s.io): kube's
// ValidateConfiguration, the tolerations checks the plugin applies when it loads its file
// (runtime/admission/pod-plugins/).
import { decodeTolerations } from "../admission/pod-plugins/toleration-json.js";
import { validateTolerations } from "../admission/pod-plugins/toleration-validation.js";
import type { FieldError } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";

function validate(obj: KubeObject): FieldError[] {
  const list = (field: "default" | "whitelist") =>
    decodeTolerations(obj[field], { configurationField: field, caseInsensitive: false });
  return [
    ...validateTolerations(list("default"), "podtolerationrestriction.default"),
    ...validateTolerations(list("whitelist"), "podtolerationrestriction.whitelist"),
  ];
}

export const strategy: Strategy = { validate };
