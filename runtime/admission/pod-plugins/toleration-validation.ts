// core validation's ValidateTolerations with kube's texts, for the tolerations of PodTolerationRestriction's
// configuration (kube validates them with default pod validation options).
import type { FieldError } from "../../errors/field-error.js";
import { invalid, notSupported } from "../../errors/field-error.js";
import type { JsonObject } from "../../object/json-object.js";
import { labelValueErrors, qualifiedNameErrors } from "../../selection/label-validation.js";
import { stringField } from "./pod-write.js";

const effects = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

export function validateTolerations(tolerations: readonly JsonObject[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  tolerations.forEach((t, i) => {
    const at = `${path}[${i}]`;
    const key = stringField(t, "key");
    const operator = stringField(t, "operator");
    const value = stringField(t, "value");
    const effect = stringField(t, "effect");
    if (key !== "") for (const message of qualifiedNameErrors(key)) errors.push(invalid(`${at}.key`, key, message));
    if (key === "" && operator !== "Exists") {
      errors.push(
        invalid(
          `${at}.operator`,
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    }
    if (typeof t.tolerationSeconds === "number" && effect !== "NoExecute") {
      errors.push(invalid(`${at}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (operator) {
      case "Equal":
      case "": {
        const messages = labelValueErrors(value);
        if (messages.length > 0) errors.push(invalid(`${at}.operator`, value, messages.join(";")));
        break;
      }
      case "Exists":
        if (value !== "")
          errors.push(invalid(`${at}.operator`, value, "value must be empty when `operator` is 'Exists'"));
        break;
      case "Lt":
      case "Gt":
        errors.push(notSupported(`${at}.operator`, operator, ["Equal", "Exists", "Lt", "Gt"]));
        break;
      default:
        errors.push(notSupported(`${at}.operator`, operator, ["Equal", "Exists"]));
    }
    if (effect !== "" && !effects.includes(effect)) errors.push(notSupported(`${at}.effect`, effect, effects));
  });
  return errors;
}
