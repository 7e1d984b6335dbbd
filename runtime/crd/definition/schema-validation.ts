// One CRD schema (`spec.validation` or a version's `schema`) as kube validates it: the root's limits
// with the status subresource, structurality (NewStructural, ValidateStructural), defaults, the
// keyword checks of every node, then the x-kubernetes-validations rules compiled and costed, skipping
// rules of nodes with problems at or below them as kube does.
import { compileRules } from "../../cel/rules/rule-checks.js";
import { type FieldError, forbidden, invalid } from "../../errors/field-error.js";
import { child } from "../../errors/field-path.js";
import { defaultValueErrors } from "./default-values.js";
import type { Validation } from "./internal-spec.js";
import { type SchemaProps, toCelSchema } from "./schema-props.js";
import { checkSchemaValues, type SchemaCheckOptions } from "./schema-value-checks.js";
import { statusRootErrors } from "./status-root.js";
import { structuralErrors, unsupportedKeywordError } from "./structural-checks.js";

export interface SchemaOptions extends SchemaCheckOptions {
  requireStructuralSchema: boolean;
  requirePrunedDefaults: boolean;
  /** The version's schema is unchanged by an update: rules over the per-expression cost limit stay. */
  suppressPerExpressionCost: boolean;
}

const perExpressionCost = /^estimated (rule|messageExpression) cost exceeds budget/;

/** Structural errors, or (when it is structural) the errors of its defaults; ready: CEL may compile. */
function structuralProblems(
  schema: SchemaProps,
  path: string,
  options: SchemaOptions,
): { errors: FieldError[]; deferred: FieldError[]; ready: boolean } {
  const unsupported = unsupportedKeywordError(schema);
  if (unsupported !== undefined) return { errors: [], deferred: [invalid(path, "", unsupported)], ready: false };
  const structural = structuralErrors(schema, path);
  if (structural.length > 0) return { errors: structural, deferred: [], ready: false };
  const defaults = defaultValueErrors(schema, path, options.requirePrunedDefaults);
  return { errors: defaults, deferred: [], ready: defaults.length === 0 };
}

function ruleErrors(schema: SchemaProps, path: string, withErrors: ReadonlySet<SchemaProps>, options: SchemaOptions) {
  const celSchema = toCelSchema(schema, (s) => !withErrors.has(s));
  const errors = compileRules(celSchema, { path }).map((p) => p.error);
  return options.suppressPerExpressionCost
    ? errors.filter((e) => !(e.type === "FieldValueForbidden" && perExpressionCost.test(e.detail ?? "")))
    : errors;
}

export function validateSchema(
  validation: Validation | undefined,
  statusEnabled: boolean,
  options: SchemaOptions,
  path: string,
): FieldError[] {
  const schema = validation?.openAPIV3Schema;
  if (schema === undefined) return [];
  const schemaPath = child(path, "openAPIV3Schema");
  const errs: FieldError[] = [];
  if (statusEnabled) errs.push(...statusRootErrors(schema, path));
  if (schema.nullable === true) errs.push(forbidden(`${schemaPath}.nullable`, "nullable cannot be true at the root"));
  const structural = options.requireStructuralSchema
    ? structuralProblems(schema, schemaPath, options)
    : { errors: [], deferred: [], ready: false };
  errs.push(...structural.errors);
  const checks = checkSchemaValues(schema, schemaPath, options);
  errs.push(...checks.errors);
  if (structural.ready) errs.push(...ruleErrors(schema, schemaPath, checks.withErrors, options));
  if (errs.length === 0) errs.push(...structural.deferred);
  return errs;
}
