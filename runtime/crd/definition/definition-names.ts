// The names of a CustomResourceDefinition: its own name (`<plural>.<group>`), the API group, the
// resource and kind names it serves (spec.names and status.acceptedNames), and the approval annotation
// kube requires for groups under k8s.io and kubernetes.io.
import { type FieldError, invalid, required } from "../../errors/field-error.js";
import { child, index, key } from "../../errors/field-path.js";
import { dns1035LabelErrors, dnsSubdomainErrors } from "../../validation/name-formats.js";
import { asObject } from "../../validation/walk.js";
import type { InternalSpec, Names } from "./internal-spec.js";

const nameRule = 'must be spec.names.plural+"."+spec.group';

/** The rule kube adds to the name format: metadata.name (and generateName) must be `<plural>.<group>`. */
export function validateDefinitionName(metadata: unknown, spec: InternalSpec): FieldError[] {
  const meta = asObject(metadata) ?? {};
  const expected = `${spec.names.plural}.${spec.group}`;
  const errs: FieldError[] = [];
  for (const field of ["generateName", "name"]) {
    const value = meta[field];
    if (typeof value === "string" && value !== "" && value !== expected) {
      errs.push(invalid(child("metadata", field), value, nameRule));
    }
  }
  return errs;
}

export function validateGroup(group: string, path: string): FieldError[] {
  if (group === "") return [required(path)];
  const errs = dnsSubdomainErrors(group);
  if (errs.length > 0) return [invalid(path, group, errs.join(","))];
  if (!group.includes(".")) return [invalid(path, group, "should be a domain with at least one dot")];
  return [];
}

/** IsDNS1035Label's messages joined into one error, as kube reports each name. */
export function labelErrors(value: string, path: string): FieldError[] {
  const errs = dns1035LabelErrors(value);
  return errs.length > 0 ? [invalid(path, value, errs.join(","))] : [];
}

/** Kinds may have mixed case but are otherwise labels. */
function kindErrors(value: string, path: string): FieldError[] {
  const errs = dns1035LabelErrors(value.toLowerCase());
  const detail = `may have mixed case, but should otherwise match: ${errs.join(",")}`;
  return errs.length > 0 ? [invalid(path, value, detail)] : [];
}

/** ValidateCustomResourceDefinitionNames: the formats of names that are set. */
export function validateNames(names: Names, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (names.plural !== "") errs.push(...labelErrors(names.plural, child(path, "plural")));
  if (names.singular !== "") errs.push(...labelErrors(names.singular, child(path, "singular")));
  if (names.kind !== "") errs.push(...kindErrors(names.kind, child(path, "kind")));
  if (names.listKind !== "") errs.push(...kindErrors(names.listKind, child(path, "listKind")));
  names.shortNames.forEach((s, i) => {
    errs.push(...labelErrors(s, index(child(path, "shortNames"), i)));
  });
  if (names.kind !== "" && names.kind === names.listKind) {
    errs.push(invalid(child(path, "listKind"), names.listKind, "kind and listKind may not be the same"));
  }
  names.categories.forEach((c, i) => {
    errs.push(...labelErrors(c, index(child(path, "categories"), i)));
  });
  return errs;
}

/** The names spec.names must set (status.acceptedNames may leave them empty). */
export function requiredSpecNames(names: Names, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const field of ["plural", "singular", "kind", "listKind"] as const) {
    if (names[field] === "") errs.push(required(child(path, field)));
  }
  return errs;
}

const approvalAnnotation = "api-approved.kubernetes.io";
const enhancementLink = "see https://github.com/kubernetes/enhancements/pull/1111";

function isProtectedGroup(group: string): boolean {
  return ["k8s.io", "kubernetes.io"].some((d) => group === d || group.endsWith(`.${d}`));
}

type ApprovalState = "approved" | "bypassed" | "invalid" | "missing";

function approvalState(annotations: Record<string, unknown>): ApprovalState {
  const value = annotations[approvalAnnotation];
  if (typeof value !== "string" || value === "") return "missing";
  if (value.startsWith("unapproved")) return "bypassed";
  return isRequestUri(value) ? "approved" : "invalid";
}

/** Go's url.ParseRequestURI: an absolute URL or an absolute path. */
function isRequestUri(value: string): boolean {
  if (value.startsWith("/")) return true;
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(value) && URL.canParse(value);
}

/** validateAPIApproval: groups under k8s.io and kubernetes.io need the approval annotation. */
export function validateApiApproval(group: string, metadata: unknown, oldMetadata: unknown): FieldError[] {
  if (!isProtectedGroup(group)) return [];
  const annotations = asObject(asObject(metadata)?.annotations) ?? {};
  const state = approvalState(annotations);
  if (oldMetadata !== undefined) {
    const oldState = approvalState(asObject(asObject(oldMetadata)?.annotations) ?? {});
    if (oldState === state) return [];
  }
  const path = key(child("metadata", "annotations"), approvalAnnotation);
  if (state === "missing") {
    return [
      required(path, `protected groups must have approval annotation "${approvalAnnotation}", ${enhancementLink}`),
    ];
  }
  if (state === "invalid") {
    const detail = `protected groups must have approval annotation "${approvalAnnotation}" with either a URL or a reason starting with "unapproved", ${enhancementLink}`;
    return [invalid(path, annotations[approvalAnnotation], detail)];
  }
  return [];
}
