// The validate step of every write: the schema's structural rules, the metadata rules every kind shares,
// the kind's hand-written rules, then its CEL rules (x-kubernetes-validations); all errors together in
// one 422.
import { validateSchemaRules } from "../cel/rules/schema-rules.js";
import type { FieldError } from "../errors/field-error.js";
import { invalid } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { groupKind } from "../registry/kinds.js";
import type { ServedKind } from "../registry/served-kind.js";
import type { WriteEnvironment } from "../registry/strategy.js";
import { validateObjectMeta, validateObjectMetaUpdate } from "../validation/object-meta.js";
import { objectMeta } from "./object-access.js";

export function defaultObject(kind: ServedKind, obj: KubeObject): void {
  kind.schema.default(obj);
  kind.strategy?.default?.(obj);
}

export function validateObject(
  kind: ServedKind,
  env: WriteEnvironment,
  obj: KubeObject,
  old?: KubeObject,
  subresource?: string,
): void {
  const errs: FieldError[] = [];
  const meta = objectMeta(obj);
  const options = {
    namespaced: kind.resource.scope === "Namespaced",
    nameFormat: kind.resource.nameFormat,
    generic: kind.strategy?.genericObjectMeta === true,
    ...(kind.strategy?.validateName === undefined ? {} : { nameErrors: kind.strategy.validateName }),
  };
  errs.push(...validateObjectMeta(meta, options));
  if (old !== undefined) errs.push(...validateObjectMetaUpdate(meta, objectMeta(old)));
  const schema = kind.schema;
  const own = kind.strategy?.validate?.(obj, old, subresource, env) ?? [];
  // A kind's own rule words what the schema also checks (a required field, a duplicate key) as kube does:
  // the schema's error on the same field and of the same type is then left out.
  const covered = new Set(own.map((e) => `${e.type} ${e.field}`));
  errs.push(...schema.validate(obj, old).filter((e) => !covered.has(`${e.type} ${e.field}`)), ...own);
  if (schema.celSchema !== undefined) {
    const ratcheting = schema.ratchets === true && old !== undefined;
    errs.push(...validateSchemaRules(schema.celSchema, obj, old, errs, { ratcheting }));
  }
  if (errs.length > 0) {
    const name = typeof meta.name === "string" ? meta.name : "";
    throw invalid(groupKind(kind), name, errs);
  }
}
