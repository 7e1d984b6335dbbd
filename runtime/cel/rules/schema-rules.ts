// The CEL step of a write: a kind's x-kubernetes-validations rules run after the structural checks, as
// the apiextensions server runs them for custom resources, unless those checks found the object in a
// shape the rules were not written for (a wrong type, a missing required field, an unsupported value,
// too long, too many), in which case one placeholder error says the rules were skipped.
import { type FieldError, type FieldErrorType, invalid } from "../../errors/field-error.js";
import { ruleValidatorFor } from "./rule-validator.js";
import type { StructuralSchema } from "./structural-schema.js";

const blockingTypes: ReadonlySet<FieldErrorType> = new Set([
  "FieldValueNotSupported",
  "FieldValueRequired",
  "FieldValueTooLong",
  "FieldValueTooMany",
  "FieldValueTypeInvalid",
]);

/** The errors of a kind's rules on a new object (and its previous version on update). */
export function validateSchemaRules(
  schema: StructuralSchema,
  obj: unknown,
  old: unknown,
  earlierErrors: readonly FieldError[],
  options: { ratcheting?: boolean } = {},
): FieldError[] {
  const validator = ruleValidatorFor(schema);
  if (validator === undefined) return [];
  if (earlierErrors.some((e) => blockingTypes.has(e.type))) {
    // Kubernetes reports this with a nil field path and a nil value.
    const detail =
      "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";
    return [invalid("<nil>", "null", detail)];
  }
  return validator.validate(obj, old, options).errors;
}
