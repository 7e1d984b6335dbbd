// PodSecurityConfiguration (pod-security.admission.config.k8s.io): kube's ValidatePodSecurityConfiguration
// over the defaulted object: known levels and versions, well-formed unique exemptions. The plugin's loader
// shares the exemption rules (runtime/admission/pod-security/).
import {
  validatePodSecurityDefaults,
  validatePodSecurityExemptions,
} from "../admission/pod-security/pod-security-validation.js";
import type { FieldError } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { asObject, listItems } from "../validation/walk.js";

function strings(value: unknown): string[] {
  return listItems(value).map((item) => (typeof item === "string" ? item : ""));
}

function validate(obj: KubeObject): FieldError[] {
  const defaults = asObject(obj.defaults) ?? {};
  const exemptions = asObject(obj.exemptions) ?? {};
  return [
    ...validatePodSecurityDefaults(
      Object.fromEntries(Object.entries(defaults).map(([k, v]) => [k, typeof v === "string" ? v : ""])),
    ),
    ...validatePodSecurityExemptions({
      usernames: strings(exemptions.usernames),
      namespaces: strings(exemptions.namespaces),
      runtimeClasses: strings(exemptions.runtimeClasses),
    }),
  ];
}

export const strategy: Strategy = { validate };
