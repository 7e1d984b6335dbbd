// One entry of spec.versions: its deprecation warning, and the schema, subresources, printer columns
// and selectable fields it carries itself (those all versions share are checked once, at the top).
import { type FieldError, invalid } from "../../errors/field-error.js";
import { child } from "../../errors/field-path.js";
import type { Version } from "./internal-spec.js";
import { validateColumns } from "./printer-columns.js";
import { toCelSchema } from "./schema-props.js";
import { validateSchema } from "./schema-validation.js";
import { validateSelectableFields } from "./selectable-fields.js";
import { unsupportedKeywordError } from "./structural-checks.js";
import { validateSubresources } from "./subresources.js";
import type { DefinitionOptions } from "./validation-options.js";

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** validateDeprecationWarning's messages. */
export function deprecationWarningErrors(deprecated: boolean, warning: string | undefined): string[] {
  if (!deprecated && warning !== undefined) return ["can only be set for deprecated versions"];
  if (warning === undefined) return [];
  const errs: string[] = [];
  const bytes = Buffer.byteLength(warning);
  if (bytes > 256) errs.push("must be <= 256 characters long");
  if (bytes === 0) errs.push("must not be an empty string");
  let at = 0;
  for (const ch of warning) {
    if (!printable.test(ch)) {
      errs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${at}`);
      break;
    }
    at += Buffer.byteLength(ch);
  }
  return errs;
}

/** Selectable fields need the schema they point into, and a structural one. */
export function selectableFieldErrors(
  fields: readonly (string | undefined)[] | undefined,
  schemaProps: Parameters<typeof toCelSchema>[0] | undefined,
  paths: { fields: string; schema: string; missingSchema: string },
  allowTooMany: boolean,
): FieldError[] {
  if (fields === undefined || fields.length === 0) return [];
  if (schemaProps === undefined) return [invalid(paths.fields, "", paths.missingSchema)];
  const errs: FieldError[] = [];
  const unsupported = unsupportedKeywordError(schemaProps);
  if (unsupported !== undefined) errs.push(invalid(paths.schema, "", unsupported));
  return [...errs, ...validateSelectableFields(fields, toCelSchema(schemaProps), paths.fields, allowTooMany)];
}

export function validateVersion(
  version: Version,
  path: string,
  statusEnabled: boolean,
  options: DefinitionOptions,
): FieldError[] {
  const errs = deprecationWarningErrors(version.deprecated, version.deprecationWarning).map((msg) =>
    invalid(child(path, "deprecationWarning"), version.deprecationWarning ?? null, msg),
  );
  const schemaOptions = {
    ...options,
    suppressPerExpressionCost: options.versionsWithUnchangedSchemas.has(version.name),
  };
  errs.push(...validateSchema(version.schema, statusEnabled, schemaOptions, child(path, "schema")));
  errs.push(...validateSubresources(version.subresources, child(path, "subresources")));
  errs.push(...validateColumns(version.additionalPrinterColumns, child(path, "additionalPrinterColumns")));
  const paths = {
    fields: child(path, "selectableFields"),
    schema: child(path, "schema.openAPIV3Schema"),
    missingSchema: "may only be set when `version.schema.openAPIV3Schema` is not included",
  };
  errs.push(
    ...selectableFieldErrors(
      version.selectableFields,
      version.schema?.openAPIV3Schema,
      paths,
      options.allowTooManySelectableFields.has(version.name),
    ),
  );
  return errs;
}
