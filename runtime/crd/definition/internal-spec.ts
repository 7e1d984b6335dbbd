// The apiextensions server validates a CustomResourceDefinition in its internal form, converted from v1,
// and names fields by that form's paths: when every version has the same schema, subresources or
// printer columns they move to `spec.validation`, `spec.subresources`, `spec.additionalPrinterColumns`
// (so a single-version CRD's schema errors read `spec.validation.openAPIV3Schema…`), `spec.version` is
// the first version's name, and the webhook conversion settings are `spec.conversion.webhookClientConfig`
// and `spec.conversion.conversionReviewVersions`. This module builds that view from a v1 spec.
import { semanticEqual } from "../../validation/field-rules.js";
import { asObject, type JsonObject, listItems } from "../../validation/walk.js";
import { readSchemaProps, type SchemaProps } from "./schema-props.js";

export interface Names {
  plural: string;
  singular: string;
  kind: string;
  listKind: string;
  shortNames: string[];
  categories: string[];
}

/** A version's (or the top-level) `schema`: the CustomResourceValidation. */
export interface Validation {
  openAPIV3Schema?: SchemaProps;
}

// Optional strings below are absent (undefined) when the client left out a field the schema requires:
// the generated validators report those, the checks here report them present but empty.

export interface Scale {
  specReplicasPath?: string;
  statusReplicasPath?: string;
  labelSelectorPath?: string;
}

export interface Subresources {
  status: boolean;
  scale?: Scale;
}

export interface Column {
  name?: string;
  type?: string;
  format: string;
  jsonPath?: string;
}

export interface Version {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated: boolean;
  deprecationWarning?: string;
  schema?: Validation;
  subresources?: Subresources;
  additionalPrinterColumns: Column[];
  selectableFields?: (string | undefined)[];
  /** The version as sent, for comparing versions and printing them. */
  raw: JsonObject;
}

export interface ServiceReference {
  namespace?: string;
  name?: string;
  path?: string;
  port?: unknown;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  caBundle?: string;
}

export interface Conversion {
  strategy?: string;
  webhookClientConfig?: WebhookClientConfig;
  conversionReviewVersions?: string[];
}

export interface InternalSpec {
  group: string;
  scope: string;
  names: Names;
  preserveUnknownFields: boolean;
  /** The first version's name ("" without versions). */
  version: string;
  versions: Version[];
  validation?: Validation;
  subresources?: Subresources;
  additionalPrinterColumns: Column[];
  selectableFields?: (string | undefined)[];
  conversion?: Conversion;
  /** The v1 spec as sent. */
  raw: JsonObject;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function optionalText(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function texts(value: unknown): string[] {
  return listItems(value).map(text);
}

export function readNames(value: unknown): Names {
  const names = asObject(value) ?? {};
  return {
    plural: text(names.plural),
    singular: text(names.singular),
    kind: text(names.kind),
    listKind: text(names.listKind),
    shortNames: texts(names.shortNames),
    categories: texts(names.categories),
  };
}

function readValidation(value: unknown): Validation | undefined {
  const v = asObject(value);
  if (v === undefined) return undefined;
  const schema = readSchemaProps(v.openAPIV3Schema);
  return schema === undefined ? {} : { openAPIV3Schema: schema };
}

function readSubresources(value: unknown): Subresources | undefined {
  const v = asObject(value);
  if (v === undefined) return undefined;
  const scale = asObject(v.scale);
  const out: Subresources = { status: asObject(v.status) !== undefined };
  if (scale !== undefined) {
    out.scale = {};
    for (const k of ["specReplicasPath", "statusReplicasPath", "labelSelectorPath"] as const) {
      const path = optionalText(scale[k]);
      if (path !== undefined) out.scale[k] = path;
    }
  }
  return out;
}

function readColumns(value: unknown): Column[] {
  return listItems(value).map((c) => {
    const col = asObject(c) ?? {};
    const column: Column = { format: text(col.format) };
    for (const k of ["name", "type", "jsonPath"] as const) {
      const value = optionalText(col[k]);
      if (value !== undefined) column[k] = value;
    }
    return column;
  });
}

function readSelectableFields(value: unknown): (string | undefined)[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((f) => optionalText(asObject(f)?.jsonPath));
}

function readVersion(value: unknown): Version {
  const v = asObject(value) ?? {};
  const version: Version = {
    name: text(v.name),
    served: v.served === true,
    storage: v.storage === true,
    deprecated: v.deprecated === true,
    additionalPrinterColumns: readColumns(v.additionalPrinterColumns),
    raw: v,
  };
  if (typeof v.deprecationWarning === "string") version.deprecationWarning = v.deprecationWarning;
  const schema = readValidation(v.schema);
  if (schema !== undefined) version.schema = schema;
  const subresources = readSubresources(v.subresources);
  if (subresources !== undefined) version.subresources = subresources;
  const selectableFields = readSelectableFields(v.selectableFields);
  if (selectableFields !== undefined) version.selectableFields = selectableFields;
  return version;
}

function readServiceReference(value: unknown): ServiceReference | undefined {
  const s = asObject(value);
  if (s === undefined) return undefined;
  const service: ServiceReference = { port: s.port };
  for (const k of ["namespace", "name", "path"] as const) {
    const value = optionalText(s[k]);
    if (value !== undefined) service[k] = value;
  }
  return service;
}

function readConversion(value: unknown): Conversion | undefined {
  const c = asObject(value);
  if (c === undefined) return undefined;
  const webhook = asObject(c.webhook);
  const conversion: Conversion = {};
  const strategy = optionalText(c.strategy);
  if (strategy !== undefined) conversion.strategy = strategy;
  // Without a webhook kube sees no versions; with one that leaves them out, the schema's validators report it.
  if (webhook === undefined) conversion.conversionReviewVersions = [];
  else if (Array.isArray(webhook.conversionReviewVersions)) {
    conversion.conversionReviewVersions = texts(webhook.conversionReviewVersions);
  }
  const clientConfig = asObject(webhook?.clientConfig);
  if (clientConfig !== undefined) {
    const config: WebhookClientConfig = {};
    if (typeof clientConfig.url === "string") config.url = clientConfig.url;
    const service = readServiceReference(clientConfig.service);
    if (service !== undefined) config.service = service;
    if (typeof clientConfig.caBundle === "string" && clientConfig.caBundle !== "") {
      config.caBundle = clientConfig.caBundle;
    }
    conversion.webhookClientConfig = config;
  }
  return conversion;
}

/** Whether every version carries the same value under `key` (absent counting as a value). */
function identical(versions: readonly JsonObject[], key: string): boolean {
  return versions.every((v) => semanticEqual(v[key], versions[0]?.[key]));
}

/** The internal form of a v1 CustomResourceDefinition spec. */
export function internalSpec(specValue: unknown): InternalSpec {
  const spec = asObject(specValue) ?? {};
  const rawVersions = listItems(spec.versions).map((v) => asObject(v) ?? {});
  const versions = rawVersions.map(readVersion);
  const out: InternalSpec = {
    group: text(spec.group),
    scope: text(spec.scope),
    names: readNames(spec.names),
    preserveUnknownFields: spec.preserveUnknownFields === true,
    version: versions[0]?.name ?? "",
    versions,
    additionalPrinterColumns: [],
    raw: spec,
  };
  const conversion = readConversion(spec.conversion);
  if (conversion !== undefined) out.conversion = conversion;
  const first = versions[0];
  if (first === undefined) return out;
  const schemaShared = identical(rawVersions, "schema");
  if (identical(rawVersions, "subresources")) {
    if (first.subresources !== undefined) out.subresources = first.subresources;
    for (const v of versions) delete v.subresources;
  }
  if (schemaShared) {
    if (first.schema !== undefined) out.validation = first.schema;
    for (const v of versions) delete v.schema;
  }
  if (identical(rawVersions, "additionalPrinterColumns")) {
    out.additionalPrinterColumns = first.additionalPrinterColumns;
    for (const v of versions) v.additionalPrinterColumns = [];
  }
  if (schemaShared && identical(rawVersions, "selectableFields")) {
    if (first.selectableFields !== undefined) out.selectableFields = first.selectableFields;
    for (const v of versions) delete v.selectableFields;
  }
  return out;
}

/** The schema the given version is served with: its own or the shared one. */
export function schemaForVersion(spec: InternalSpec, version: Version): SchemaProps | undefined {
  return version.schema?.openAPIV3Schema ?? spec.validation?.openAPIV3Schema;
}

/** Every schema of the spec (top-level and per version). */
export function allSchemas(spec: InternalSpec): SchemaProps[] {
  const schemas = [spec.validation?.openAPIV3Schema, ...spec.versions.map((v) => v.schema?.openAPIV3Schema)];
  return schemas.filter((s): s is SchemaProps => s !== undefined);
}
