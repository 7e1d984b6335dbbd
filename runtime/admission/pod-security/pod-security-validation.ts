// kube's ValidatePodSecurityConfiguration: each default a known level or version, and exempt namespaces,
// runtime classes and usernames well-formed and unique. The plugin's loader (which reads the defaults itself)
// and the kind's strategy (`kapi config validate`) share it.
import { duplicate, type FieldError, invalid } from "../../errors/field-error.js";
import { dnsLabelErrors, dnsSubdomainErrors } from "../../validation/name-formats.js";
import { levelError, parseLevel, parseVersion, versionError } from "./policy-levels.js";

export interface PodSecurityExemptions {
  usernames: readonly string[];
  namespaces: readonly string[];
  runtimeClasses: readonly string[];
}

function validateNames(path: string, names: readonly string[], rule: (name: string) => string[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  names.forEach((name, i) => {
    const messages = rule(name);
    if (messages.length > 0) errors.push(invalid(`${path}[${i}]`, name, messages.join(", ")));
    else if (seen.has(name)) errors.push(duplicate(`${path}[${i}]`, name));
    else seen.add(name);
  });
  return errors;
}

/** The exemptions' errors, as kube's validateNamespaces, validateRuntimeClasses and validateUsernames give them. */
export function validatePodSecurityExemptions(exemptions: PodSecurityExemptions): FieldError[] {
  return [
    ...validateNames("exemptions.namespaces", exemptions.namespaces, dnsLabelErrors),
    ...validateNames("exemptions.runtimeClasses", exemptions.runtimeClasses, dnsSubdomainErrors),
    ...validateNames("exemptions.usernames", exemptions.usernames, (name) =>
      name === "" ? ["username must not be empty"] : [],
    ),
  ];
}

/** The defaults' errors, in kube's order (enforce, warn, audit). */
export function validatePodSecurityDefaults(defaults: Readonly<Record<string, string>>): FieldError[] {
  const errors: FieldError[] = [];
  for (const mode of ["enforce", "warn", "audit"]) {
    const level = defaults[mode] ?? "";
    if (parseLevel(level) === undefined) errors.push(invalid(`defaults.${mode}`, level, levelError));
    const version = defaults[`${mode}-version`] ?? "";
    if (parseVersion(version) === undefined) errors.push(invalid(`defaults.${mode}-version`, version, versionError));
  }
  return errors;
}
