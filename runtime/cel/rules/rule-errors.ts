// The field errors a failing or failed rule produces, in kube-apiserver's words.
import { duplicate, type FieldError, forbidden, invalid, required } from "../../errors/field-error.js";
import type { StructuralSchema, ValidationRule } from "./structural-schema.js";

/** How cel-go starts the error of an evaluation stopped by its cost limit. */
export const costLimitPrefix = "operation cancelled: actual cost limit exceeded";

/** The rule as error texts name it: its message when it has one, else its expression. */
export function ruleErrorString(rule: ValidationRule): string {
  const message = rule.message?.trim() ?? "";
  return message !== "" ? message : rule.rule.trim();
}

/** The detail of a failed rule without a (working) messageExpression. */
function ruleMessageOrDefault(rule: ValidationRule): string {
  const message = rule.message?.trim() ?? "";
  return message !== "" ? message : `failed rule: ${ruleErrorString(rule)}`;
}

export function outOfBudget(path: string, typeName: string): FieldError {
  return invalid(
    path,
    typeName,
    "validation failed due to running out of cost budget, no further validation rules will be run",
  );
}

/** The detail of an evaluation error (no such key, overflow, no matching overload, cost limit). */
export function runtimeErrorDetail(message: string, rule: string): string {
  // The checker catches overload errors with a position; one at run time comes from a dynamic value (int-or-string).
  if (message.startsWith("no such overload")) {
    return `'${message}': call arguments did not match a supported operator, function or macro signature for rule: ${rule}`;
  }
  if (message.startsWith(costLimitPrefix)) {
    return `'${message}': no further validation rules will be run due to call cost exceeds limit for rule: ${rule}`;
  }
  return `${message} evaluating rule: ${rule}`;
}

/**
 * The error of a rule that evaluated to false, by its reason. Scalar values are shown; objects and
 * lists are not (the message names what is wrong).
 */
export function ruleFailure(
  path: string,
  value: unknown,
  schema: StructuralSchema,
  rule: ValidationRule,
  messageFromExpression: string | undefined,
): FieldError {
  const detail = messageFromExpression ?? ruleMessageOrDefault(rule);
  const shown = schema.type === "object" || schema.type === "array" ? undefined : { value };
  switch (rule.reason) {
    case "FieldValueForbidden":
      return forbidden(path, detail);
    case "FieldValueRequired":
      return required(path, detail);
    case "FieldValueDuplicate":
      return shown === undefined ? { type: "FieldValueDuplicate", field: path } : duplicate(path, shown.value);
    default:
      return shown === undefined
        ? { type: "FieldValueInvalid", field: path, detail }
        : invalid(path, shown.value, detail);
  }
}
