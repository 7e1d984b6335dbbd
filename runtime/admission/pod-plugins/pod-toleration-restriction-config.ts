// PodTolerationRestriction's configuration (podtolerationrestriction.admission.k8s.io/v1alpha1
// Configuration: `default` and `whitelist` tolerations), decoded as kube's scheme decodes it (apiVersion and
// kind required, unknown fields ignored) and validated with kube's texts. No configuration: both empty.
import { formatFieldError } from "../../errors/format-field-error.js";
import type { JsonObject } from "../../object/json-object.js";
import { decodePluginConfig, type PluginConfigScheme } from "../plugin-config-document.js";
import { decodeTolerations } from "./toleration-json.js";
import { validateTolerations } from "./toleration-validation.js";

export const podTolerationRestrictionGroupVersion = "podtolerationrestriction.admission.k8s.io/v1alpha1";

const scheme: PluginConfigScheme = {
  name: "pkg/admission/podtolerationrestriction/config.go:32",
  kinds: new Map([[podTolerationRestrictionGroupVersion, "Configuration"]]),
};

export interface PodTolerationRestrictionConfig {
  /** Tolerations a pod gets when its namespace has no defaultTolerations annotation. */
  default: JsonObject[];
  /** Tolerations pods may have when their namespace has no tolerationsWhitelist annotation; empty: any. */
  whitelist: JsonObject[];
}

/** The configuration of a text (none: empty lists); throws kube's startup text. */
export function loadPodTolerationRestrictionConfig(text: string | undefined): PodTolerationRestrictionConfig {
  if (text === undefined) return { default: [], whitelist: [] };
  const document = decodePluginConfig(text, scheme);
  const config = {
    default: decodeTolerations(document.default, { configurationField: "default", caseInsensitive: false }),
    whitelist: decodeTolerations(document.whitelist, { configurationField: "whitelist", caseInsensitive: false }),
  };
  const errors = [
    ...validateTolerations(config.default, "podtolerationrestriction.default"),
    ...validateTolerations(config.whitelist, "podtolerationrestriction.whitelist"),
  ];
  // kube prints the field.ErrorList itself with %v: every error's text, space-separated, in brackets.
  if (errors.length > 0) throw new Error(`invalid config: [${errors.map(formatFieldError).join(" ")}]`);
  return config;
}
