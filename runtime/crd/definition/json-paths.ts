// The "simple JSON paths" a CustomResourceDefinition names fields with (printer columns, scale
// subresource paths): kube only checks they start with a dot.
import { type FieldError, invalid } from "../../errors/field-error.js";

export function simpleJsonPathErrors(value: string, path: string): FieldError[] {
  if (value === "") return [invalid(path, value, "must not be empty")];
  if (!value.startsWith(".")) return [invalid(path, value, "must be a simple json path starting with .")];
  return [];
}
