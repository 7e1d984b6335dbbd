// The fieldValidation query parameter and what each level makes of the problems strict decoding finds
// (unknown fields, duplicate keys): nothing under Ignore, one warning each under Warn, a 400 listing them
// all under Strict. docs/field-validation.md has kube's wording for each.
import type { FieldError } from "../errors/field-error.js";
import * as fe from "../errors/field-error.js";
import { goQuote } from "../errors/go-format.js";
import { badRequest, invalid } from "../errors/status-error.js";
import { cannotBeHandled, type HandledAs } from "./decode-errors.js";

export type FieldValidation = "Ignore" | "Warn" | "Strict";

/** The options kind a write decodes its query into; invalid parameters are reported against it. */
export type WriteOptionsKind = "CreateOptions" | "UpdateOptions" | "PatchOptions";

const levels: readonly string[] = ["Ignore", "Warn", "Strict"];

/** Values kube's ValidateFieldValidation accepts, in the sorted order its message lists them. */
const accepted = ["", "Ignore", "Strict", "Warn"];

/** The errors kube's options validation reports for a fieldValidation value, for one combined 422. */
export function validateFieldValidation(value: string): FieldError[] {
  return accepted.includes(value) ? [] : [fe.notSupported("fieldValidation", value, accepted)];
}

/**
 * The level a write asks for; absent or empty means Warn. Any other value is refused with the 422 kube's
 * options validation gives: `CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: …`.
 */
export function parseFieldValidation(
  query: URLSearchParams,
  optionsKind: WriteOptionsKind = "CreateOptions",
): FieldValidation {
  const value = query.get("fieldValidation") ?? "";
  const errors = validateFieldValidation(value);
  if (errors.length > 0) throw invalid({ group: "meta.k8s.io", name: optionsKind }, "", errors);
  return levels.includes(value) ? (value as FieldValidation) : "Warn";
}

export function unknownFieldProblem(path: string): string {
  return `unknown field ${goQuote(path)}`;
}

export function duplicateFieldProblem(path: string): string {
  return `duplicate field ${goQuote(path)}`;
}

const yamlReportPrefixes = ["yaml: unmarshal errors:\n", "error converting YAML to JSON: yaml: unmarshal errors:\n"];

/** kube's parseYAMLWarnings: a YAML strict report becomes one warning per line; anything else stays whole. */
function warningsOf(problem: string): string[] {
  const prefix = yamlReportPrefixes.find((p) => problem.startsWith(p));
  if (prefix === undefined) return [problem];
  return problem
    .slice(prefix.length)
    .split("\n")
    .map((line) => line.trim());
}

/**
 * What a level makes of strict-decoding problems already worded and ordered as kube's decoder reports them:
 * no warnings under Ignore, one warning per problem under Warn, and under Strict the 400
 * `<Kind> in version "<v>" cannot be handled as a <Kind>: strict decoding error: <problems>` (without
 * `handledAs`, just `strict decoding error: …`).
 */
export function strictDecodingOutcome(
  level: FieldValidation,
  problems: readonly string[],
  handledAs?: HandledAs,
): string[] {
  if (level === "Ignore" || problems.length === 0) return [];
  if (level === "Warn") return problems.flatMap(warningsOf);
  const reason = `strict decoding error: ${problems.join(", ")}`;
  throw handledAs === undefined ? badRequest(reason) : cannotBeHandled(handledAs, reason);
}

/**
 * Warnings for unknown fields and duplicate keys at `level` (see strictDecodingOutcome). Given separately,
 * unknown fields are listed before duplicates; `decodeObject` lists both in document order as kube does.
 */
export function fieldValidationWarnings(
  level: FieldValidation,
  unknown: readonly string[],
  duplicates: readonly string[],
  handledAs?: HandledAs,
): string[] {
  const problems = [...unknown.map(unknownFieldProblem), ...duplicates.map(duplicateFieldProblem)];
  return strictDecodingOutcome(level, problems, handledAs);
}

/**
 * A `Warning` header value as kube's warning recorder writes it: code 299, no agent, the text quoted with
 * `"` and `\` escaped, non-ASCII text sent as its UTF-8 bytes. kube drops a warning holding control
 * characters; Node cannot send them either, so here they become spaces and the warning still arrives.
 */
export function warningHeader(text: string): string {
  let quoted = '"';
  for (const ch of text) {
    if (ch === '"' || ch === "\\") quoted += `\\${ch}`;
    else if (ch !== "\t" && (ch < " " || ch === "\x7f")) quoted += " ";
    else quoted += ch;
  }
  return Buffer.from(`299 - ${quoted}"`, "utf8").toString("latin1");
}
