// ResourceQuota's admission configuration (apiserver.config.k8s.io/v1 ResourceQuotaConfiguration, or
// resourcequota.admission.k8s.io/v1beta1 and v1alpha1 Configuration): resources whose consumption needs a
// covering quota (`limitedResources`: a resource of a group, the quota resource names it matches by
// substring, and the scopes that need covering). Without a configuration nothing is limited by default.
import { formatFieldErrors } from "../../errors/format-field-error.js";
import { isJsonObject } from "../../object/json-object.js";
import type { ScopeRequirement } from "../../quota/evaluator.js";
import { decodePluginConfig, type PluginConfigScheme } from "../plugin-config-document.js";
import type { PluginConfig } from "../plugin-context.js";
import { validateLimitedResources } from "./quota-configuration-validation.js";

export interface LimitedResource {
  apiGroup: string;
  resource: string;
  matchContains: string[];
  matchScopes: ScopeRequirement[];
}

export interface QuotaConfiguration {
  limitedResources: LimitedResource[];
}

const scheme: PluginConfigScheme = {
  name: "k8s.io/apiserver/pkg/admission/plugin/resourcequota/config.go:31",
  kinds: new Map([
    ["apiserver.config.k8s.io/v1", "ResourceQuotaConfiguration"],
    ["resourcequota.admission.k8s.io/v1beta1", "Configuration"],
    ["resourcequota.admission.k8s.io/v1alpha1", "Configuration"],
  ]),
  strict: true,
};

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** kube's LoadConfiguration and ValidateConfiguration; errors read as kube-apiserver's. */
export function loadQuotaConfiguration(config: PluginConfig | undefined): QuotaConfiguration {
  if (config === undefined) return { limitedResources: [] };
  const document = decodePluginConfig(config.text, scheme);
  const items = Array.isArray(document.limitedResources) ? document.limitedResources : [];
  const limitedResources = items.map((item): LimitedResource => {
    const entry = isJsonObject(item) ? item : {};
    return {
      apiGroup: typeof entry.apiGroup === "string" ? entry.apiGroup : "",
      resource: typeof entry.resource === "string" ? entry.resource : "",
      matchContains: strings(entry.matchContains),
      matchScopes: Array.isArray(entry.matchScopes) ? (entry.matchScopes as ScopeRequirement[]) : [],
    };
  });
  const errors = validateLimitedResources(limitedResources);
  if (errors.length > 0) throw new Error(formatFieldErrors(errors));
  return { limitedResources };
}
