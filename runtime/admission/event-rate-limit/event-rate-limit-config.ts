// EventRateLimit's configuration (eventratelimit.admission.k8s.io/v1alpha1 Configuration): decoded as kube's
// scheme decodes it (apiVersion and kind required, unknown fields ignored, field names matched exactly) and
// validated with kube's texts. A plugin switched on without a configuration is validated as an empty one,
// so it fails as kube's does.
import { formatFieldErrors } from "../../errors/format-field-error.js";
import { decodePluginConfig, type PluginConfigScheme } from "../plugin-config-document.js";
import { decodeLimit, type Limit, unmarshalError, validateLimits } from "./event-rate-limit-limits.js";

export type { Limit, LimitType } from "./event-rate-limit-limits.js";

export const configurationGroupVersion = "eventratelimit.admission.k8s.io/v1alpha1";

const scheme: PluginConfigScheme = {
  name: "k8s.io/kubernetes/plugin/pkg/admission/eventratelimit/config.go:31",
  kinds: new Map([[configurationGroupVersion, "Configuration"]]),
};

function decode(text: string): unknown {
  return decodePluginConfig(text, scheme).limits ?? null;
}

/** The limits of a configuration text (none given: an empty configuration); throws with kube's startup text. */
export function loadEventRateLimitConfig(text: string | undefined): Limit[] {
  const limitsValue = text === undefined ? null : decode(text);
  if (limitsValue !== null && !Array.isArray(limitsValue)) {
    throw unmarshalError(limitsValue, "Configuration.limits", "[]v1alpha1.Limit");
  }
  const limits = (limitsValue ?? []).map((limit) => decodeLimit(limit));
  const errors = validateLimits(limitsValue, limits);
  if (errors.length > 0) throw new Error(formatFieldErrors(errors));
  return limits;
}
