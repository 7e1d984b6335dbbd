// kube's hand-written CertificateSigningRequest validation (pkg/apis/certificates/validation): the request
// must be a signed PKCS#10 PEM block, usages known and distinct, the signer name well formed, the duration
// at least ten minutes, conditions sound; updates may not drop Approved/Denied/Failed conditions, and only
// the approval subresource adds Approved or Denied, only the status subresource sets the certificate. What
// stored objects already break is tolerated on update, as kube tolerates it for compatibility.
import { X509Certificate } from "node:crypto";
import type { FieldError } from "../errors/field-error.js";
import * as fe from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { dnsLabelErrors, dnsSubdomainErrors } from "../validation/name-formats.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import { CertificateRequestError, requestOf } from "./certificate-signing-request-parse.js";

export const legacyUnknownSignerName = "kubernetes.io/legacy-unknown";

/** certificates.KeyUsage values, sorted as kube lists them in its Unsupported value text. */
export const knownUsages: readonly string[] = [
  "any",
  "cert sign",
  "client auth",
  "code signing",
  "content commitment",
  "crl sign",
  "data encipherment",
  "decipher only",
  "digital signature",
  "email protection",
  "encipher only",
  "ipsec end system",
  "ipsec tunnel",
  "ipsec user",
  "key agreement",
  "key encipherment",
  "microsoft sgc",
  "netscape sgc",
  "ocsp signing",
  "s/mime",
  "server auth",
  "signing",
  "timestamping",
];
const usageSet = new Set(knownUsages);

/** Condition types that may only be True. */
const trueOnlyTypes = new Set(["Approved", "Denied", "Failed"]);

/** What a write may do beyond a create through the main resource, and what the stored object already breaks. */
interface Allowances {
  settingApprovalConditions: boolean;
  settingCertificate: boolean;
  bothApprovedAndDenied: boolean;
  legacySignerName: boolean;
  duplicateConditionTypes: boolean;
  emptyConditionType: boolean;
  arbitraryCertificate: boolean;
  unknownUsages: boolean;
  duplicateUsages: boolean;
}

export function specOf(obj: KubeObject | undefined): JsonObject {
  return asObject(obj?.spec) ?? {};
}

export function statusOf(obj: KubeObject | undefined): JsonObject {
  return asObject(obj?.status) ?? {};
}

export function conditionsOf(obj: KubeObject | undefined): JsonObject[] {
  return listItems(statusOf(obj).conditions).map((c) => asObject(c) ?? {});
}

function usagesOf(obj: KubeObject | undefined): string[] {
  return listItems(specOf(obj).usages).map(String);
}

function certificateOf(obj: KubeObject | undefined): string {
  const certificate = statusOf(obj).certificate;
  return typeof certificate === "string" ? certificate : "";
}

/** Why status.certificate is not a chain of CERTIFICATE PEM blocks; undefined when it is (or empty). */
function certificateProblem(base64: string): string | undefined {
  let pem = Buffer.from(base64, "base64").toString("latin1");
  if (pem.length === 0) return undefined;
  let blocks = 0;
  for (;;) {
    const match = /-----BEGIN ([^\r\n-]*)-----\r?\n([\s\S]*?)-----END \1-----\r?\n?/.exec(pem);
    if (match === null) break;
    const [whole, type = "", body = ""] = match;
    if (type !== "CERTIFICATE") return `only CERTIFICATE PEM blocks are allowed, found "${type}"`;
    if (body.includes(":")) return "no PEM block headers are permitted";
    blocks++;
    try {
      new X509Certificate(Buffer.from(body.replace(/\s+/g, ""), "base64"));
    } catch {
      return "x509: malformed certificate";
    }
    pem = pem.slice(match.index + whole.length);
  }
  return blocks === 0 ? "must contain at least one CERTIFICATE PEM block" : undefined;
}

/** core validation's ValidateSignerName. */
export function signerNameErrors(path: string, signerName: string): FieldError[] {
  if (signerName === "") return [fe.required(path)];
  const segments = signerName.split("/");
  if (segments.length !== 2) {
    return [
      fe.invalid(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'"),
    ];
  }
  const [domain = "", name = ""] = segments;
  const errs: FieldError[] = [];
  if (domain.length > 253) errs.push(fe.tooLong(path, 253));
  const domainLabels = domain.split(".");
  for (const label of domainLabels) {
    const problems = dnsLabelErrors(label);
    if (problems.length === 0) continue;
    for (const problem of problems) errs.push(fe.invalid(path, domain, `validating label "${label}": ${problem}`));
    break;
  }
  if (domainLabels.length < 2) {
    errs.push(fe.invalid(path, domain, "should be a domain with at least two segments separated by dots"));
  }
  for (const label of name.split(".")) {
    const problems = dnsSubdomainErrors(label);
    if (problems.length === 0) continue;
    for (const problem of problems) errs.push(fe.invalid(path, name, `validating label "${label}": ${problem}`));
    break;
  }
  const maxLength = 253 + (253 + 63 + 1) + 1;
  if (signerName.length > maxLength) errs.push(fe.tooLong(path, maxLength));
  return errs;
}

function hasDuplicates(values: readonly string[]): boolean {
  return new Set(values).size !== values.length;
}

function allowances(obj: KubeObject, old: KubeObject | undefined): Allowances {
  const oldConditions = conditionsOf(old);
  const oldTypes = oldConditions.map((c) => String(c.type ?? ""));
  const oldUsages = usagesOf(old);
  return {
    settingApprovalConditions: false,
    settingCertificate: false,
    bothApprovedAndDenied: oldTypes.includes("Approved") && oldTypes.includes("Denied"),
    legacySignerName: old !== undefined && specOf(old).signerName === legacyUnknownSignerName,
    duplicateConditionTypes: old !== undefined && hasDuplicates(oldTypes),
    emptyConditionType: oldTypes.includes(""),
    arbitraryCertificate:
      old !== undefined &&
      (certificateOf(obj) === certificateOf(old) || certificateProblem(certificateOf(old)) !== undefined),
    unknownUsages: oldUsages.some((u) => !usageSet.has(u)),
    duplicateUsages: hasDuplicates(oldUsages),
  };
}

function conditionErrors(obj: KubeObject, allow: Allowances): FieldError[] {
  const path = "status.conditions";
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  for (const [i, condition] of conditionsOf(obj).entries()) {
    const type = String(condition.type ?? "");
    const status = String(condition.status ?? "");
    if (!allow.emptyConditionType && type === "") errs.push(fe.required(`${path}[${i}].type`));
    const allowed = trueOnlyTypes.has(type) ? ["True"] : ["False", "True", "Unknown"];
    if (status === "") errs.push(fe.required(`${path}[${i}].status`));
    else if (!allowed.includes(status)) errs.push(fe.notSupported(`${path}[${i}].status`, status, allowed));
    if (!allow.bothApprovedAndDenied) {
      if (type === "Approved") {
        approved = true;
        if (denied) errs.push(fe.invalid(path, type, "Approved and Denied conditions are mutually exclusive"));
      } else if (type === "Denied") {
        denied = true;
        if (approved) errs.push(fe.invalid(path, type, "Approved and Denied conditions are mutually exclusive"));
      }
    }
    if (!allow.duplicateConditionTypes) {
      if (seen.has(type)) errs.push(fe.duplicate(`${path}[${i}].type`, type));
      seen.add(type);
    }
  }
  return errs;
}

function objectErrors(obj: KubeObject, allow: Allowances): FieldError[] {
  const spec = specOf(obj);
  const errs: FieldError[] = [];
  try {
    const problem = requestOf(spec).signatureProblem();
    if (problem !== undefined) errs.push(fe.invalid("spec.request", spec.request, problem));
  } catch (error) {
    if (!(error instanceof CertificateRequestError)) throw error;
    errs.push(fe.invalid("spec.request", spec.request ?? "", error.message));
  }
  const usages = usagesOf(obj);
  if (usages.length === 0) errs.push(fe.required("spec.usages"));
  if (!allow.unknownUsages) {
    for (const [i, usage] of usages.entries()) {
      if (!usageSet.has(usage)) errs.push(fe.notSupported(`spec.usages[${i}]`, usage, knownUsages));
    }
  }
  if (!allow.duplicateUsages) {
    const seen = new Set<string>();
    for (const [i, usage] of usages.entries()) {
      if (seen.has(usage)) errs.push(fe.duplicate(`spec.usages[${i}]`, usage));
      seen.add(usage);
    }
  }
  const signerName = typeof spec.signerName === "string" ? spec.signerName : "";
  if (!allow.legacySignerName && signerName === legacyUnknownSignerName) {
    errs.push(fe.invalid("spec.signerName", signerName, "the legacy signerName is not allowed via this API version"));
  } else {
    errs.push(...signerNameErrors("spec.signerName", signerName));
  }
  const expiration = spec.expirationSeconds;
  if (typeof expiration === "number" && expiration < 600) {
    errs.push(
      fe.invalid("spec.expirationSeconds", expiration, "may not specify a duration less than 600 seconds (10 minutes)"),
    );
  }
  errs.push(...conditionErrors(obj, allow));
  if (!allow.arbitraryCertificate) {
    const problem = certificateProblem(certificateOf(obj));
    if (problem !== undefined) errs.push(fe.invalid("status.certificate", "<certificate data>", problem));
  }
  return errs;
}

function countOf(obj: KubeObject, type: string): number {
  return conditionsOf(obj).filter((c) => c.type === type).length;
}

/** ValidateCertificateSigningRequestCreate, and the update through the main resource or a subresource. */
export function validateCertificateSigningRequest(
  obj: KubeObject,
  old: KubeObject | undefined,
  subresource: string | undefined,
): FieldError[] {
  const allow = allowances(obj, old);
  if (old === undefined) return objectErrors(obj, allow);
  allow.settingApprovalConditions = subresource === "approval";
  allow.settingCertificate = subresource === "status";
  const errs = objectErrors(obj, allow);
  for (const type of ["Approved", "Denied", "Failed"]) {
    if (countOf(obj, type) < countOf(old, type)) {
      errs.push(fe.forbidden("status.conditions", `updates may not remove a condition of type "${type}"`));
    }
  }
  if (!allow.settingApprovalConditions) {
    // A modified Approved/Denied condition never gets here: the status strategy keeps the stored instances.
    for (const type of ["Approved", "Denied"]) {
      if (countOf(obj, type) > countOf(old, type)) {
        errs.push(fe.forbidden("status.conditions", `updates may not add a condition of type "${type}"`));
      }
    }
  }
  if (certificateOf(obj) !== certificateOf(old)) {
    if (!allow.settingCertificate) {
      errs.push(fe.forbidden("status.certificate", "updates may not set certificate content"));
    } else if (certificateOf(old) !== "") {
      errs.push(fe.forbidden("status.certificate", "updates may not modify existing certificate content"));
    }
  }
  return errs;
}
