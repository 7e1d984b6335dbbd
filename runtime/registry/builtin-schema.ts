// A built-in kind's schema as the generated tables give it: validators and defaulters (generated/validation.ts)
// and the field table (generated/fields.ts), keyed by group, version and kind; and its versions, converted
// through the generated conversion table.
import { conversionTable } from "../../generated/conversions.js";
import { fieldTable } from "../../generated/fields.js";
import { type KindValidation, validation, validationKey } from "../../generated/validation.js";
import { schemaForKind } from "../apply/typed/managed-schema.js";
import { convertToGroup } from "../conversion/convert.js";
import { crossGroupConversions } from "../conversion/cross-group-table.js";
import type { JsonObject } from "../conversion/json-values.js";
import type { KubeObject } from "../object/kube-object.js";
import type { GroupVersionKind } from "./kind-record.js";
import type { KindSchema, KindVersions } from "./served-kind.js";

const schemas = new Map<string, KindSchema>();

/** Kinds the tables hold no validators for (shared meta kinds) have none to run. */
const noValidation: KindValidation = { validate: () => [], default: () => {} };

export function builtinSchema(kind: GroupVersionKind): KindSchema {
  const key = validationKey(kind.group, kind.version, kind.kind);
  let schema = schemas.get(key);
  if (schema === undefined) {
    const { validate, default: applyDefaults, celSchema } = validation[key] ?? noValidation;
    schema = {
      validate,
      default: applyDefaults,
      ...(celSchema === undefined ? {} : { celSchema }),
      fields: schemaForKind(fieldTable, key),
    };
    schemas.set(key, schema);
  }
  return schema;
}

const versionsByGroup = new Map<string, KindVersions>();

/**
 * How a built-in kind of `group` converts: at once, through the generated table, from any version of its
 * group or of a group sharing its storage (events.k8s.io Events are stored as core Events).
 */
export function builtinVersionsOf(group: string): KindVersions {
  let versions = versionsByGroup.get(group);
  if (versions === undefined) {
    const convertBuiltin = (obj: KubeObject, version: string): KubeObject =>
      convertToGroup(conversionTable, crossGroupConversions, obj as JsonObject, group, version) as KubeObject;
    versions = {
      convertSync: convertBuiltin,
      convert: async (objects, version) => objects.map((obj) => convertBuiltin(obj, version)),
      viewKey: "",
    };
    versionsByGroup.set(group, versions);
  }
  return versions;
}
