// spec of a CustomResourceDefinition (validateCustomResourceDefinitionSpec, and the rules an update
// adds): group, scope, a schema for every version, exactly one storage version, unique version names,
// names, the shared schema, subresources, columns and selectable fields, and conversion.
import { type FieldError, invalid, notSupported, required } from "../../errors/field-error.js";
import { child, index } from "../../errors/field-path.js";
import { immutableField } from "../../validation/field-rules.js";
import { validateConversion } from "./conversion.js";
import { labelErrors, requiredSpecNames, validateGroup, validateNames } from "./definition-names.js";
import type { InternalSpec, Subresources } from "./internal-spec.js";
import { validateColumns } from "./printer-columns.js";
import { schemaHas } from "./schema-props.js";
import { validateSchema } from "./schema-validation.js";
import { validateSubresources } from "./subresources.js";
import type { DefinitionOptions } from "./validation-options.js";
import { selectableFieldErrors, validateVersion } from "./versions.js";

const scopes = ["Cluster", "Namespaced"];

function hasStatus(subresources: Subresources | undefined): boolean {
  return subresources?.status === true;
}

function schemaErrors(spec: InternalSpec, options: DefinitionOptions, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.validation?.openAPIV3Schema === undefined) {
    spec.versions.forEach((v, i) => {
      const schemaPath = child(child(index(child(path, "versions"), i), "schema"), "openAPIV3Schema");
      if (v.schema?.openAPIV3Schema !== undefined) return;
      if (options.requireOpenAPISchema) errs.push(required(schemaPath));
      else if (!spec.preserveUnknownFields && v.served) {
        errs.push(required(schemaPath, "because otherwise all fields are pruned"));
      }
    });
  }
  const schemas = [spec.validation, ...spec.versions.map((v) => v.schema)];
  const hasDefaults = schemas.some((v) => schemaHas(v?.openAPIV3Schema, (s) => s.default !== undefined));
  if (hasDefaults && spec.preserveUnknownFields) {
    errs.push(
      invalid(child(path, "preserveUnknownFields"), true, "must be false in order to use defaults in the schema"),
    );
  }
  return errs;
}

function versionErrors(spec: InternalSpec, options: DefinitionOptions, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const versionsPath = child(path, "versions");
  const rawVersions = spec.versions.map((v) => v.raw);
  const names = new Set<string>();
  let unique = true;
  const perVersionSubresources = spec.versions.some((v) => v.subresources !== undefined);
  spec.versions.forEach((version, i) => {
    if (names.has(version.name)) unique = false;
    names.add(version.name);
    const at = index(versionsPath, i);
    if (typeof version.raw.name === "string") errs.push(...labelErrors(version.name, child(at, "name")));
    const subresources = perVersionSubresources ? version.subresources : spec.subresources;
    errs.push(...validateVersion(version, at, hasStatus(subresources), options));
  });
  if (!unique) errs.push(invalid(versionsPath, rawVersions, "must contain unique version names"));
  if (spec.versions.filter((v) => v.storage).length !== 1) {
    errs.push(invalid(versionsPath, rawVersions, "must have exactly one version marked as storage version"));
  }
  if (spec.version !== "") errs.push(...labelErrors(spec.version, child(path, "version")));
  return errs;
}

/** validateCustomResourceDefinitionSpec on kube's internal form. */
export function validateSpec(spec: InternalSpec, options: DefinitionOptions, path = "spec"): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof spec.raw.group === "string") errs.push(...validateGroup(spec.group, child(path, "group")));
  if (spec.scope === "" && typeof spec.raw.scope === "string") errs.push(required(child(path, "scope")));
  else if (spec.scope !== "" && !scopes.includes(spec.scope))
    errs.push(notSupported(child(path, "scope"), spec.scope, scopes));
  // Pruning (preserveUnknownFields false, always in v1) needs structural schemas.
  const opts = spec.preserveUnknownFields ? options : { ...options, requireStructuralSchema: true };
  errs.push(...schemaErrors(spec, opts, path));
  errs.push(...versionErrors(spec, opts, path));
  const namesPath = child(path, "names");
  const rawNames = spec.raw.names as Record<string, unknown> | undefined;
  errs.push(
    ...requiredSpecNames(spec.names, namesPath).filter((e) => {
      const field = e.field.slice(namesPath.length + 1);
      // plural and kind left out are the schema validators' to report.
      return !((field === "plural" || field === "kind") && typeof rawNames?.[field] !== "string");
    }),
  );
  errs.push(...validateNames(spec.names, namesPath));
  const anyStatus = hasStatus(spec.subresources) || spec.versions.some((v) => hasStatus(v.subresources));
  const schemaOptions = { ...opts, suppressPerExpressionCost: opts.versionsWithUnchangedSchemas.has(spec.version) };
  errs.push(...validateSchema(spec.validation, anyStatus, schemaOptions, child(path, "validation")));
  errs.push(...validateSubresources(spec.subresources, child(path, "subresources")));
  errs.push(...validateColumns(spec.additionalPrinterColumns, child(path, "additionalPrinterColumns")));
  const paths = {
    fields: child(path, "selectableFields"),
    schema: child(path, "schema.openAPIV3Schema"),
    missingSchema: "may only be set when validations.schema is included",
  };
  const sharedSchema = spec.validation === undefined ? undefined : (spec.validation.openAPIV3Schema ?? {});
  errs.push(
    ...selectableFieldErrors(spec.selectableFields, sharedSchema, paths, opts.allowTooManySelectableFields.has("")),
  );
  errs.push(...validateConversion(spec.conversion, spec.preserveUnknownFields, opts, child(path, "conversion")));
  return errs;
}

/** validateCustomResourceDefinitionSpecUpdate: the spec's rules and what may not change. */
export function validateSpecUpdate(
  spec: InternalSpec,
  old: InternalSpec,
  options: DefinitionOptions,
  path = "spec",
): FieldError[] {
  const errs = validateSpec(spec, options, path);
  if (options.requireImmutableNames) {
    errs.push(...immutableField(spec.scope, old.scope, child(path, "scope")));
    errs.push(...immutableField(spec.names.kind, old.names.kind, child(child(path, "names"), "kind")));
  }
  errs.push(...immutableField(spec.group, old.group, child(path, "group")));
  errs.push(...immutableField(spec.names.plural, old.names.plural, child(child(path, "names"), "plural")));
  return errs;
}
