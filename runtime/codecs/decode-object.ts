// A write's body decoded as kube-apiserver's create and update handlers decode it, in one call: the
// Content-Type picks the decoder, the body is parsed, checked against the kind's fields (unknown fields
// dropped, values of the wrong type refused) and the strict-decoding problems are answered as the
// fieldValidation level asks, in the order and words kube's decoder uses. The first fatal error wins: a
// malformed body or a wrongly typed value is a 400 at every level, and strict problems are then not reported.
import { decodeBody } from "./decode-body.js";
import { cannotBeHandled, type GroupVersionKind, handledAs } from "./decode-errors.js";
import { type FieldValidation, strictDecodingOutcome, unknownFieldProblem } from "./field-validation.js";
import { checkFields, kindFields } from "./unknown-fields.js";

export interface DecodedObject {
  object: Record<string, unknown>;
  /** Warning texts under the Warn level, one per problem. */
  warnings: string[];
}

/** go-yaml's strict report of repeated keys, one strict-decoding problem however many lines it has. */
function yamlReport(lines: readonly string[]): string[] {
  return lines.length === 0 ? [] : [`yaml: unmarshal errors:\n  ${lines.join("\n  ")}`];
}

/** What a kind defined at run time (a custom resource) brings to decoding: its schema's pruning. */
export interface RuntimeDefinedKind {
  /** Drops what the schema does not declare; returns the paths dropped. */
  prune(obj: Record<string, unknown>): string[];
}

/**
 * Decodes the body of a write to an endpoint serving `target` (a kind, or a subresource's kind). A kind the
 * generated field table lacks (`custom`) is pruned by its schema instead, and has no protobuf form, so its
 * bodies are JSON or YAML.
 */
export function decodeObject(
  contentType: string | undefined,
  body: Buffer,
  level: FieldValidation,
  target: GroupVersionKind,
  custom?: RuntimeDefinedKind,
): DecodedObject {
  const decoded = decodeBody(contentType, body, target, custom === undefined);
  const as = handledAs(decoded.value, target);
  // YAML repeats come first: kube reads them while converting YAML to JSON, before decoding.
  const problems = yamlReport(decoded.yamlDuplicates);
  const n = kindFields(target.group, target.version, target.kind);
  if (n !== undefined) {
    const check = checkFields(decoded.value, n, decoded.duplicateKeys);
    if (check.fatal !== undefined) throw cannotBeHandled(as, check.fatal);
    problems.push(...check.problems);
  } else if (custom !== undefined) {
    problems.push(...custom.prune(decoded.value).map(unknownFieldProblem));
  }
  return { object: decoded.value, warnings: strictDecodingOutcome(level, problems, as) };
}
