// The text of a FieldError exactly as Go's field.Error.Error() and ErrorBody() print it, since clients
// and tests compare these messages verbatim.
import type { FieldError, FieldErrorType } from "./field-error.js";
import { goValue } from "./go-format.js";

const typeText: Record<FieldErrorType, string> = {
  FieldValueRequired: "Required value",
  FieldValueInvalid: "Invalid value",
  FieldValueNotSupported: "Unsupported value",
  FieldValueDuplicate: "Duplicate value",
  FieldValueTooLong: "Too long",
  FieldValueTooMany: "Too many",
  FieldValueForbidden: "Forbidden",
  FieldValueTypeInvalid: "Invalid value",
  FieldValueNotFound: "Not found",
  InternalError: "Internal error",
};

/** Types whose body never shows the bad value. */
const valueless = new Set<FieldErrorType>([
  "FieldValueRequired",
  "FieldValueForbidden",
  "FieldValueTooLong",
  "InternalError",
]);

/** ErrorBody: the message without the field, as a Status cause carries it. */
export function errorBody(e: FieldError): string {
  let s = typeText[e.type];
  if (!valueless.has(e.type) && "badValue" in e) s += `: ${goValue(e.badValue)}`;
  if (e.detail !== undefined && e.detail !== "") s += `: ${e.detail}`;
  return s;
}

/** Error(): `<field>: <body>`. */
export function formatFieldError(e: FieldError): string {
  return `${e.field}: ${errorBody(e)}`;
}

/** field.ErrorList.ToAggregate().Error(): duplicates dropped, brackets only around two or more. */
export function formatFieldErrors(errors: readonly FieldError[]): string {
  const messages = [...new Set(errors.map(formatFieldError))];
  return messages.length === 1 ? (messages[0] ?? "") : `[${messages.join(", ")}]`;
}
