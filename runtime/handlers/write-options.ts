// Query parameters every write shares: dryRun (only "All" is known) and fieldValidation, refused together
// in one 422 against the options kind, as kube validates its CreateOptions, UpdateOptions and PatchOptions.
import { type FieldValidation, validateFieldValidation } from "../codecs/field-validation.js";
import * as fe from "../errors/field-error.js";
import { invalid } from "../errors/status-error.js";

export type OptionsKind = "CreateOptions" | "UpdateOptions" | "PatchOptions" | "DeleteOptions";

export interface WriteQuery {
  dryRun: boolean;
  fieldValidation: FieldValidation;
}

function dryRunErrors(values: readonly string[]): fe.FieldError[] {
  if (values.length === 0 || (values.length === 1 && values[0] === "All")) return [];
  return [fe.notSupported("dryRun", values, ["All"])];
}

function refuse(kind: OptionsKind, errors: fe.FieldError[]): void {
  if (errors.length > 0) throw invalid({ group: "meta.k8s.io", name: kind }, "", errors);
}

export function parseWriteQuery(query: URLSearchParams, kind: Exclude<OptionsKind, "DeleteOptions">): WriteQuery {
  const dryRun = query.getAll("dryRun");
  const level = query.get("fieldValidation") ?? "";
  refuse(kind, [...dryRunErrors(dryRun), ...validateFieldValidation(level)]);
  return {
    dryRun: dryRun.length > 0,
    fieldValidation: level === "Ignore" || level === "Strict" ? level : "Warn",
  };
}

/** True for `dryRun=All` (from the query or a DeleteOptions body); anything else is refused. */
export function parseDryRun(query: URLSearchParams, kind: OptionsKind, fromBody: readonly string[] = []): boolean {
  const values = [...query.getAll("dryRun"), ...fromBody];
  refuse(kind, dryRunErrors(values));
  return values.length > 0;
}
