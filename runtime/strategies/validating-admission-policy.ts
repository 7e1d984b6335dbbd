// ValidatingAdmissionPolicies (admissionregistration.k8s.io/v1), validated as kube-apiserver validates
// them: the shared policy checks (admission-policy-validation.ts), then validations (an expression that
// is a bool, message and messageExpression rules, a known reason) and audit annotations (at most 20,
// keys that make qualified names under the policy's name, unique, a value expression that is a string
// or null); a policy needs validations or audit annotations.

import { BoolType, NullType, StringType } from "../cel/common/cel-types.js";
import { duplicate, type FieldError, invalid, notSupported, required } from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { qualifiedNameErrors } from "../selection/label-validation.js";
import { asObject, listItems } from "../validation/walk.js";
import {
  matchConditionsUnchanged,
  PolicyExpressionCompiler,
  text,
  validatePolicyHead,
  validatePolicyMatchConditions,
  validateVariables,
} from "./admission-policy-validation.js";

/** kube's set in its sorted order, as its "supported values" message prints it. */
const reasons = ["Forbidden", "Invalid", "RequestEntityTooLarge"];
const maxAuditAnnotations = 20;
const maxValueExpressionBytes = 5 * 1024;
const lineBreak = /[\n\r]/;

function validateValidation(
  validation: Record<string, unknown>,
  compiler: PolicyExpressionCompiler,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const expression = text(validation.expression);
  const expressionPath = child(path, "expression");
  if (expression.trim() === "") errs.push(required(expressionPath, "expression is not specified"));
  else {
    const { problem } = compiler.compile(expression, [BoolType]);
    if (problem !== undefined) errs.push(invalid(expressionPath, expression, problem));
  }
  const messageExpression = text(validation.messageExpression);
  const messageExpressionPath = child(path, "messageExpression");
  if (messageExpression !== "" && messageExpression.trim() === "") {
    errs.push(invalid(messageExpressionPath, messageExpression, "must be non-empty if specified"));
  } else if (messageExpression !== "") {
    // Compiled untrimmed, so the compiler's columns point into the field as written.
    const { problem } = compiler.compile(messageExpression, [StringType], { authorizer: false, patchTypes: false });
    if (problem !== undefined) errs.push(invalid(messageExpressionPath, messageExpression, problem));
  }
  const message = text(validation.message);
  const messagePath = child(path, "message");
  if (message !== "" && message.trim() === "")
    errs.push(invalid(messagePath, message, "must be non-empty if specified"));
  else if (lineBreak.test(message.trim())) errs.push(invalid(messagePath, message, "must not contain line breaks"));
  const reason = validation.reason;
  if (reason !== undefined && reason !== null && !reasons.includes(text(reason))) {
    errs.push(notSupported(child(path, "reason"), reason, reasons));
  }
  return errs;
}

function validateAuditAnnotation(
  annotation: Record<string, unknown>,
  policyName: string,
  compiler: PolicyExpressionCompiler,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const key = text(annotation.key);
  const keyPath = child(path, "key");
  if (policyName === "") errs.push(invalid(keyPath, key, "requires metadata.name be non-empty"));
  else {
    const qualified = `${policyName}/${key}`;
    errs.push(...qualifiedNameErrors(qualified).map((msg) => invalid(keyPath, qualified, msg)));
  }
  const valueExpression = text(annotation.valueExpression);
  const trimmed = valueExpression.trim();
  const valuePath = child(path, "valueExpression");
  if (trimmed === "") errs.push(required(valuePath, "valueExpression is not specified"));
  else if (Buffer.byteLength(trimmed, "utf8") > maxValueExpressionBytes) {
    errs.push(required(valuePath, `must not exceed ${maxValueExpressionBytes} bytes in length`));
  } else {
    const { problem } = compiler.compile(trimmed, [StringType, NullType]);
    if (problem !== undefined) errs.push(invalid(valuePath, valueExpression, problem));
  }
  return errs;
}

function validateAuditAnnotations(
  annotations: readonly unknown[],
  policyName: string,
  compiler: PolicyExpressionCompiler,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  if (annotations.length > maxAuditAnnotations) {
    // kube prints the list as its internal Go structs.
    const goValue = annotations.map((item) => {
      const annotation = asObject(item) ?? {};
      return { Key: text(annotation.key), ValueExpression: text(annotation.valueExpression) };
    });
    errs.push(invalid(path, goValue, `must not have more than ${maxAuditAnnotations} auditAnnotations`));
  }
  const keys = new Set<string>();
  annotations.forEach((item, i) => {
    const annotation = asObject(item) ?? {};
    errs.push(...validateAuditAnnotation(annotation, policyName, compiler, index(path, i)));
    const key = text(annotation.key);
    if (keys.has(key)) errs.push(duplicate(child(index(path, i), "key"), key));
    keys.add(key);
  });
  return errs;
}

function validateSpec(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const spec = asObject(obj.spec) ?? {};
  const errs = validatePolicyHead(spec, "spec");
  if (old === undefined || !matchConditionsUnchanged(spec, asObject(old.spec) ?? {})) {
    errs.push(...validatePolicyMatchConditions(spec, "spec.matchConditions"));
  }
  const variables = listItems(spec.variables);
  const hasParams = spec.paramKind !== undefined && spec.paramKind !== null;
  const compiler = new PolicyExpressionCompiler(hasParams, variables.length > 0);
  errs.push(...validateVariables(variables, compiler, "spec.variables"));
  const validations = listItems(spec.validations);
  const annotations = listItems(spec.auditAnnotations);
  if (validations.length === 0 && annotations.length === 0) {
    const detail = "validations or auditAnnotations must contain at least one item";
    errs.push(required("spec.validations", detail), required("spec.auditAnnotations", detail));
    return errs;
  }
  validations.forEach((item, i) => {
    errs.push(...validateValidation(asObject(item) ?? {}, compiler, index("spec.validations", i)));
  });
  const policyName = text(asObject(obj.metadata)?.name);
  errs.push(...validateAuditAnnotations(annotations, policyName, compiler, "spec.auditAnnotations"));
  return errs;
}

export const strategy: Strategy = {
  validate(obj: KubeObject, old?: KubeObject, subresource?: string): FieldError[] {
    // A status write is checked by the schema alone, as kube checks only the status then.
    if (subresource === "status") return [];
    return validateSpec(obj, old);
  },
};
