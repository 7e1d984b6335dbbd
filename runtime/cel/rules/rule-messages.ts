// A failed rule's messageExpression, evaluated as Kubernetes does: a non-empty single-line string of
// at most 5 KiB becomes the error's detail; any other result or an evaluation error falls back to the
// rule's message; running out of budget or over the per-call limit stops validation.
import { goQuote } from "../../errors/go-format.js";
import type { Activation, Program } from "../common/evaluation.js";
import { isError } from "../common/values.js";
import { maxMessageExpressionBytes } from "./limits.js";
import { costLimitPrefix } from "./rule-errors.js";

export type MessageResult =
  | { readonly kind: "message"; readonly text: string; readonly remaining: number }
  /** No usable message: the rule's own message stands. */
  | { readonly kind: "fallback"; readonly remaining: number }
  /** Validation stops with this error. */
  | { readonly kind: "stop"; readonly text: string; readonly remaining: number };

export function evaluateMessageExpression(
  program: Program,
  source: string,
  activation: Activation,
  remaining: number,
): MessageResult {
  const { value, cost } = program.eval(activation);
  if (cost > remaining) {
    return {
      kind: "stop",
      text: "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run",
      remaining: -1,
    };
  }
  const left = remaining - cost;
  if (isError(value)) {
    if (value.message.startsWith(costLimitPrefix)) {
      return {
        kind: "stop",
        text: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${goQuote(source)}`,
        remaining: -1,
      };
    }
    return { kind: "fallback", remaining: left };
  }
  if (typeof value !== "string") return { kind: "fallback", remaining: left };
  const text = value.trim();
  if (text === "" || text.includes("\n") || Buffer.byteLength(text) > maxMessageExpressionBytes) {
    return { kind: "fallback", remaining: left };
  }
  return { kind: "message", text, remaining: left };
}
