// spec.conversion: strategy None or Webhook; a webhook needs its client config (url or service) and
// the ConversionReview versions it accepts (v1 or v1beta1 among them); None takes neither. Paths are
// those of kube's internal form (`spec.conversion.webhookClientConfig`, `…conversionReviewVersions`).
import { type FieldError, forbidden, invalid, notSupported, required } from "../../errors/field-error.js";
import { child, index } from "../../errors/field-path.js";
import { dns1035LabelErrors } from "../../validation/name-formats.js";
import type { Conversion } from "./internal-spec.js";
import { caBundleErrors, webhookServiceErrors, webhookUrlErrors } from "./webhook-client-config.js";

const strategies = ["None", "Webhook"];
const acceptedReviewVersions = ["v1", "v1beta1"];
const notWebhook = "should not be set when strategy is not set to Webhook";

export interface ConversionOptions {
  requireRecognizedConversionReviewVersion: boolean;
  allowInvalidCABundle: boolean;
}

function reviewVersionErrors(versions: readonly string[], requireRecognized: boolean, path: string): FieldError[] {
  if (versions.length === 0) return [required(path)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(index(path, i), v, "duplicate version"));
      return;
    }
    seen.add(v);
    for (const msg of dns1035LabelErrors(v)) errs.push(invalid(index(path, i), v, msg));
  });
  if (requireRecognized && !versions.some((v) => acceptedReviewVersions.includes(v))) {
    errs.push(invalid(path, versions, `must include at least one of ${acceptedReviewVersions.join(", ")}`));
  }
  return errs;
}

function webhookErrors(conversion: Conversion, options: ConversionOptions, path: string): FieldError[] {
  const configPath = child(path, "webhookClientConfig");
  const config = conversion.webhookClientConfig;
  const errs: FieldError[] = [];
  if (config === undefined) errs.push(required(configPath, "required when strategy is set to Webhook"));
  else {
    if ((config.url === undefined) === (config.service === undefined)) {
      errs.push(required(configPath, "exactly one of url or service is required"));
    } else if (config.url !== undefined) errs.push(...webhookUrlErrors(child(configPath, "url"), config.url));
    else if (config.service !== undefined)
      errs.push(...webhookServiceErrors(child(configPath, "service"), config.service));
    if (config.caBundle !== undefined && !options.allowInvalidCABundle) {
      errs.push(...caBundleErrors(child(configPath, "caBundle"), config.caBundle));
    }
  }
  const versions = conversion.conversionReviewVersions;
  if (versions !== undefined) {
    const requireRecognized = options.requireRecognizedConversionReviewVersion;
    errs.push(...reviewVersionErrors(versions, requireRecognized, child(path, "conversionReviewVersions")));
  }
  return errs;
}

export function validateConversion(
  conversion: Conversion | undefined,
  preserveUnknownFields: boolean,
  options: ConversionOptions,
  path: string,
): FieldError[] {
  if (conversion === undefined) return [];
  const errs: FieldError[] = [];
  const strategy = conversion.strategy;
  if (strategy !== undefined && strategy !== "None" && preserveUnknownFields) {
    errs.push(invalid(child(path, "strategy"), strategy, "must be None if spec.preserveUnknownFields is true"));
  }
  if (strategy === "") errs.push(required(child(path, "strategy")));
  else if (strategy !== undefined && !strategies.includes(strategy)) {
    errs.push(notSupported(child(path, "strategy"), strategy, strategies));
  }
  if (strategy === "Webhook") return [...errs, ...webhookErrors(conversion, options, path)];
  if (conversion.webhookClientConfig !== undefined)
    errs.push(forbidden(child(path, "webhookClientConfig"), notWebhook));
  if ((conversion.conversionReviewVersions ?? []).length > 0) {
    errs.push(forbidden(child(path, "conversionReviewVersions"), notWebhook));
  }
  return errs;
}
