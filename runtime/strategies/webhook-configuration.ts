// Mutating and validating webhook configurations (admissionregistration.k8s.io/v1), validated as
// kube-apiserver validates them: fully qualified, unique webhook names; rules, failure and match
// policies, side effects (None or NoneOnDryRun), timeouts of 1 to 30 seconds, selectors, the client
// config, match conditions and AdmissionReview versions. An update forgives what the stored object
// already got wrong (kube's update options), so configurations stored under older rules stay editable.
// Generation moves with the webhooks, and a PUT must carry a resourceVersion. The Go-coded defaults
// (failure policy, timeout, selectors, …) are schema defaults.
import { isDeepStrictEqual } from "node:util";
import { duplicate, type FieldError, invalid, notSupported, required } from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { type LabelSelectorObject, validateLabelSelector } from "../selection/label-selector-object.js";
import { dns1035LabelErrors, dnsSubdomainErrors } from "../validation/name-formats.js";
import { asObject, listItems } from "../validation/walk.js";
import { validateClientConfig } from "./webhook-configuration-client.js";
import { validateMatchConditions } from "./webhook-configuration-match-conditions.js";
import { validateRuleWithOperations } from "./webhook-configuration-rules.js";

/** kube's lists in its sorted order, as its "supported values" messages print them. */
const failurePolicies = ["Fail", "Ignore"];
const matchPolicies = ["Equivalent", "Exact"];
const sideEffectClasses = ["None", "NoneOnDryRun", "Some", "Unknown"];
const noSideEffectClasses = ["None", "NoneOnDryRun"];
const reinvocationPolicies = ["IfNeeded", "Never"];
const admissionReviewVersions = ["v1", "v1beta1"];

const staticSuffix = ".static.k8s.io";

/** What a write must satisfy; an update relaxes what the stored object already broke. */
interface Options {
  validateMatchConditions: boolean;
  requireNoSideEffects: boolean;
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
  allowInvalidLabelValueInSelector: boolean;
}

const createOptions: Options = {
  validateMatchConditions: true,
  requireNoSideEffects: true,
  requireRecognizedAdmissionReviewVersion: true,
  requireUniqueWebhookNames: true,
  allowInvalidLabelValueInSelector: false,
};

type Webhook = Record<string, unknown>;

function webhooksOf(obj: KubeObject): Webhook[] {
  return listItems(obj.webhooks).map((item) => asObject(item) ?? {});
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.map((v) => (typeof v === "string" ? v : String(v))) : [];
}

function selectorOf(value: unknown): LabelSelectorObject | undefined {
  return asObject(value) as LabelSelectorObject | undefined;
}

function hasInvalidSelector(hook: Webhook): boolean {
  return [hook.namespaceSelector, hook.objectSelector].some(
    (selector) => validateLabelSelector(selectorOf(selector), "").length > 0,
  );
}

function updateOptions(obj: KubeObject, old: KubeObject): Options {
  const hooks = webhooksOf(obj);
  const oldHooks = webhooksOf(old);
  const sameMatchConditions =
    hooks.length === oldHooks.length &&
    oldHooks.every((oldHook, i) => isDeepStrictEqual(hooks[i]?.matchConditions, oldHook.matchConditions));
  const names = oldHooks.map((hook) => hook.name);
  return {
    validateMatchConditions: !sameMatchConditions,
    requireNoSideEffects: oldHooks.every(
      (hook) => typeof hook.sideEffects === "string" && noSideEffectClasses.includes(hook.sideEffects),
    ),
    requireRecognizedAdmissionReviewVersion: oldHooks.every((hook) => {
      const versions = stringsOf(hook.admissionReviewVersions);
      return versions.length === 0 || versions.some((v) => admissionReviewVersions.includes(v));
    }),
    requireUniqueWebhookNames: new Set(names).size === names.length,
    allowInvalidLabelValueInSelector: oldHooks.some(hasInvalidSelector),
  };
}

/** IsFullyQualifiedName. */
function validateWebhookName(name: unknown, path: string): FieldError[] {
  if (name === undefined || name === null || name === "") return [required(path)];
  if (typeof name !== "string") return [];
  const errs = dnsSubdomainErrors(name);
  if (errs.length > 0) return [invalid(path, name, errs.join(","))];
  if (name.split(".").length < 3) {
    return [invalid(path, name, "should be a domain with at least three segments separated by dots")];
  }
  return [];
}

function validateEnum(value: unknown, path: string, allowed: readonly string[]): FieldError[] {
  return typeof value === "string" && !allowed.includes(value) ? [notSupported(path, value, allowed)] : [];
}

function validateWebhook(hook: Webhook, path: string, options: Options): FieldError[] {
  const errs = validateWebhookName(hook.name, child(path, "name"));
  listItems(hook.rules).forEach((rule, i) => {
    errs.push(...validateRuleWithOperations(asObject(rule) ?? {}, index(child(path, "rules"), i)));
  });
  errs.push(...validateEnum(hook.failurePolicy, child(path, "failurePolicy"), failurePolicies));
  errs.push(...validateEnum(hook.matchPolicy, child(path, "matchPolicy"), matchPolicies));
  const sideEffects = options.requireNoSideEffects ? noSideEffectClasses : sideEffectClasses;
  if (hook.sideEffects === undefined || hook.sideEffects === null) {
    errs.push(required(child(path, "sideEffects"), `must specify one of ${sideEffects.join(", ")}`));
  }
  errs.push(...validateEnum(hook.sideEffects, child(path, "sideEffects"), sideEffects));
  const timeout = hook.timeoutSeconds;
  if (typeof timeout === "number" && (timeout > 30 || timeout < 1)) {
    errs.push(invalid(child(path, "timeoutSeconds"), timeout, "the timeout value must be between 1 and 30 seconds"));
  }
  for (const name of ["namespaceSelector", "objectSelector"]) {
    const selector = selectorOf(hook[name]);
    errs.push(...validateLabelSelector(selector, child(path, name), options.allowInvalidLabelValueInSelector));
  }
  // Only a mutating webhook has the field: decoding drops it from a validating one.
  errs.push(...validateEnum(hook.reinvocationPolicy, child(path, "reinvocationPolicy"), reinvocationPolicies));
  errs.push(...validateClientConfig(hook.clientConfig, path));
  if (options.validateMatchConditions) {
    errs.push(...validateMatchConditions(listItems(hook.matchConditions), child(path, "matchConditions")));
  }
  return errs;
}

function validateReviewVersions(value: unknown, path: string, requireRecognized: boolean): FieldError[] {
  const versions = stringsOf(value);
  if (versions.length === 0) return [required(path, `must specify one of ${admissionReviewVersions.join(", ")}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((version, i) => {
    if (seen.has(version)) {
      errs.push(invalid(index(path, i), version, "duplicate version"));
      return;
    }
    seen.add(version);
    for (const msg of dns1035LabelErrors(version)) errs.push(invalid(index(path, i), version, msg));
  });
  if (requireRecognized && !versions.some((v) => admissionReviewVersions.includes(v))) {
    errs.push(invalid(path, versions, `must include at least one of ${admissionReviewVersions.join(", ")}`));
  }
  return errs;
}

function validateConfiguration(obj: KubeObject, options: Options): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  webhooksOf(obj).forEach((hook, i) => {
    const path = index("webhooks", i);
    errs.push(...validateWebhook(hook, path, options));
    errs.push(
      ...validateReviewVersions(
        hook.admissionReviewVersions,
        child(path, "admissionReviewVersions"),
        options.requireRecognizedAdmissionReviewVersion,
      ),
    );
    const name = typeof hook.name === "string" ? hook.name : "";
    if (!options.requireUniqueWebhookNames || name === "") return;
    if (names.has(name)) errs.push(duplicate(child(path, "name"), name));
    else names.add(name);
  });
  return errs;
}

function staticSuffixWarnings(obj: KubeObject): string[] {
  const name = asObject(obj.metadata)?.name;
  if (typeof name !== "string" || !name.endsWith(staticSuffix)) return [];
  return [
    `metadata.name: names ending with "${staticSuffix}" are reserved for static manifest-based configurations and cannot be managed via the API`,
  ];
}

export const strategy: Strategy = {
  validate(obj: KubeObject, old?: KubeObject): FieldError[] {
    return validateConfiguration(obj, old === undefined ? createOptions : updateOptions(obj, old));
  },
  // kube warns while its ManifestBasedAdmissionControlConfig gate is off, as it is by default in v1.36.
  warnings: staticSuffixWarnings,
  tracksGeneration: true,
  allowUnconditionalUpdate: false,
};
