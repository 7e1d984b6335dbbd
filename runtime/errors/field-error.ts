// One problem with one field, as kube-apiserver's field.Error: the unit validators produce and the
// `causes` of an Invalid Status are made of.

export type FieldErrorType =
  | "FieldValueRequired"
  | "FieldValueInvalid"
  | "FieldValueNotSupported"
  | "FieldValueDuplicate"
  | "FieldValueTooLong"
  | "FieldValueTooMany"
  | "FieldValueForbidden"
  | "FieldValueTypeInvalid"
  | "FieldValueNotFound"
  | "InternalError";

export interface FieldError {
  type: FieldErrorType;
  /** Path as Kubernetes prints it: `spec.containers[0].name`, `metadata.labels[app]`. */
  field: string;
  badValue?: unknown;
  detail?: string;
}
