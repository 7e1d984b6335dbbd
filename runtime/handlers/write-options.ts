// Query parameters every write shares: fieldManager, dryRun (only "All" is known), fieldValidation and, on
// patches, force; refused together in one 422 against the options kind, in the order kube's
// ValidateCreateOptions, ValidateUpdateOptions and ValidatePatchOptions check them.
import { type FieldValidation, validateFieldValidation } from "../codecs/field-validation.js";
import * as fe from "../errors/field-error.js";
import { invalid } from "../errors/status-error.js";

export type OptionsKind = "CreateOptions" | "UpdateOptions" | "PatchOptions" | "DeleteOptions";

export interface WriteQuery {
  dryRun: boolean;
  fieldValidation: FieldValidation;
  /** The fieldManager parameter; absent or empty is undefined (the User-Agent names the manager then). */
  fieldManager?: string;
  /** Apply's force parameter. */
  force: boolean;
}

const fieldManagerMaxLength = 128;

/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

function fieldManagerErrors(manager: string): fe.FieldError[] {
  const errors: fe.FieldError[] = [];
  if (Buffer.byteLength(manager) > fieldManagerMaxLength)
    errors.push(fe.tooLong("fieldManager", fieldManagerMaxLength));
  let position = 0;
  for (const c of manager) {
    if (!printable.test(c)) {
      const code = (c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0");
      errors.push(fe.invalid("fieldManager", manager, `invalid character U+${code} (at position ${position})`));
    }
    position += Buffer.byteLength(c);
  }
  return errors;
}

/** Every value must be `All` (kube's ValidateDryRun: a repeated `All` is still a dry run). */
function dryRunErrors(values: readonly string[]): fe.FieldError[] {
  if (values.every((v) => v === "All")) return [];
  return [fe.notSupported("dryRun", values, ["All"])];
}

function refuse(kind: OptionsKind, errors: fe.FieldError[]): void {
  if (errors.length > 0) throw invalid({ group: "meta.k8s.io", name: kind }, "", errors);
}

/** The patch's kind decides what force and fieldManager may be: `apply` for application/apply-patch+yaml. */
export function parseWriteQuery(
  query: URLSearchParams,
  kind: Exclude<OptionsKind, "DeleteOptions">,
  patch?: "apply" | "other",
): WriteQuery {
  const dryRun = query.getAll("dryRun");
  const level = query.get("fieldValidation") ?? "";
  const manager = query.get("fieldManager") ?? "";
  const force = query.get("force");
  const errors: fe.FieldError[] = [];
  if (patch === "other" && force !== null) {
    errors.push(fe.forbidden("force", "may not be specified for non-apply patch"));
  }
  if (patch === "apply" && manager === "") errors.push(fe.required("fieldManager", "is required for apply patch"));
  errors.push(...fieldManagerErrors(manager), ...dryRunErrors(dryRun), ...validateFieldValidation(level));
  refuse(kind, errors);
  return {
    dryRun: dryRun.length > 0,
    fieldValidation: level === "Ignore" || level === "Strict" ? level : "Warn",
    ...(manager === "" ? {} : { fieldManager: manager }),
    force: force === "true",
  };
}

/** True for `dryRun=All` (the query's values, or a DeleteOptions body's); anything else is refused. */
export function parseDryRun(values: readonly string[], kind: OptionsKind): boolean {
  refuse(kind, dryRunErrors(values));
  return values.length > 0;
}

/**
 * The manager a non-apply write is recorded under: the fieldManager parameter, else the User-Agent up to
 * its first `/`, printable characters only, at most 128 bytes (kube's managerOrUserAgent).
 */
export function managerOrUserAgent(manager: string | undefined, userAgent: string | undefined): string {
  if (manager !== undefined) return manager;
  let out = "";
  for (const c of (userAgent ?? "").split("/")[0] as string) {
    if (!printable.test(c)) continue;
    if (Buffer.byteLength(out + c) > fieldManagerMaxLength) break;
    out += c;
  }
  return out;
}
