// A kind's definition as the structural schema CEL rules are compiled against at run time
// (runtime/cel/rules/structural-schema.ts): `$ref`s inlined with their siblings, unions of
// scalars (IntOrString, Quantity) as x-kubernetes-int-or-string, and only the keywords that type
// values or bound their size kept. Each rule remembers where it is written, for error messages.
import {
  hasValidationRules,
  type StructuralSchema,
  type ValidationRule,
} from "../../runtime/cel/rules/structural-schema.js";
import type { SchemaNode } from "../schema/model.js";
import type { KindInfo, SchemaSet } from "../schema/schema-set.js";

/** Where one rule is written: the schema file and the location of its x-kubernetes-validations entry. */
export interface RuleOrigin {
  readonly file: string;
  readonly location: string;
}

const copied = [
  "format",
  "required",
  "enum",
  "default",
  "nullable",
  "maxLength",
  "maxItems",
  "maxProperties",
  "x-kubernetes-list-type",
  "x-kubernetes-list-map-keys",
  "x-kubernetes-map-type",
  "x-kubernetes-int-or-string",
  "x-kubernetes-preserve-unknown-fields",
  "x-kubernetes-embedded-resource",
] as const;

/** A definition CEL cannot look into: what a recursive reference becomes. */
const opaque: StructuralSchema = { "x-kubernetes-preserve-unknown-fields": true };

/**
 * Definitions as structural schemas, converted once each (a definition reached again through itself
 * is left opaque: CEL sees no deeper).
 */
export class StructuralSchemas {
  /** For each schema node with rules, the origin of each of its rules (by index). */
  readonly origins = new Map<StructuralSchema, RuleOrigin[]>();
  private readonly done = new Map<string, StructuralSchema>();
  private readonly inProgress = new Set<string>();

  constructor(private readonly set: SchemaSet) {}

  /** The structural schema of a kind whose schema tree carries CEL rules; undefined for other kinds. */
  withRules(kind: KindInfo): StructuralSchema | undefined {
    if (this.set.tryDefinition({ fileId: kind.file.id, name: kind.entry.kind }) === undefined) return undefined;
    const schema = this.definition(kind.file.id, kind.entry.kind);
    return hasValidationRules(schema) ? schema : undefined;
  }

  /** The structural schema of definition `name` of file `fileId`. */
  definition(fileId: string, name: string): StructuralSchema {
    const id = `${fileId}#${name}`;
    const known = this.done.get(id);
    if (known !== undefined) return known;
    if (this.inProgress.has(id)) return opaque;
    const node = this.set.definition({ fileId, name });
    this.inProgress.add(id);
    const schema = this.node(node, fileId, `definitions.${name}`);
    this.inProgress.delete(id);
    this.done.set(id, schema);
    return schema;
  }

  private node(node: SchemaNode, fileId: string, location: string): StructuralSchema {
    if (node.$ref !== undefined) {
      const target = this.set.resolveRef(fileId, node.$ref);
      const { $ref: _, ...siblings } = node;
      return this.merge(this.definition(target.fileId, target.name), this.node(siblings, fileId, location));
    }
    const out: Record<string, unknown> = {};
    const type = node.type ?? inferredType(node);
    const branches = node.oneOf ?? node.anyOf;
    if (branches !== undefined) {
      const scalars = branches.every((b) => b.type !== undefined && b.type !== "object" && b.type !== "array");
      out[scalars ? "x-kubernetes-int-or-string" : "x-kubernetes-preserve-unknown-fields"] = true;
    } else if (type !== undefined) out.type = type;
    for (const k of copied) if (node[k] !== undefined) out[k] = node[k];
    if (node.properties !== undefined) {
      const props: Record<string, StructuralSchema> = {};
      for (const [name, prop] of Object.entries(node.properties)) {
        props[name] = this.node(prop, fileId, `${location}.properties.${name}`);
      }
      out.properties = props;
    }
    if (typeof node.additionalProperties === "object") {
      out.additionalProperties = this.node(node.additionalProperties, fileId, `${location}.additionalProperties`);
    } else if (node.additionalProperties !== undefined) out.additionalProperties = node.additionalProperties;
    if (node.items !== undefined) out.items = this.node(node.items, fileId, `${location}.items`);
    const rules = node["x-kubernetes-validations"];
    if (rules !== undefined && rules.length > 0) out["x-kubernetes-validations"] = rules.map(ruleOf);
    const schema = out as StructuralSchema;
    if (rules !== undefined && rules.length > 0) {
      const file = this.set.file(fileId).path;
      this.origins.set(
        schema,
        rules.map((_, i) => ({ file, location: `${location}.x-kubernetes-validations[${i}]` })),
      );
    }
    return schema;
  }

  /** A referenced definition with the keywords written beside the `$ref` taking precedence. */
  private merge(target: StructuralSchema, siblings: StructuralSchema): StructuralSchema {
    const targetRules = target["x-kubernetes-validations"] ?? [];
    const siblingRules = siblings["x-kubernetes-validations"] ?? [];
    const merged: StructuralSchema = { ...target, ...siblings };
    if (targetRules.length === 0 || siblingRules.length === 0) {
      const only = siblingRules.length > 0 ? siblings : target;
      const origins = this.origins.get(only);
      if (origins !== undefined) this.origins.set(merged, origins);
      return merged;
    }
    const both: StructuralSchema = { ...merged, "x-kubernetes-validations": [...targetRules, ...siblingRules] };
    this.origins.set(both, [...(this.origins.get(target) ?? []), ...(this.origins.get(siblings) ?? [])]);
    return both;
  }
}

function inferredType(node: SchemaNode): StructuralSchema["type"] {
  if (node.properties !== undefined || node.additionalProperties !== undefined) return "object";
  return node.items !== undefined ? "array" : undefined;
}

function ruleOf(rule: NonNullable<SchemaNode["x-kubernetes-validations"]>[number]): ValidationRule {
  const out: ValidationRule = { rule: rule.rule };
  if (rule.message !== undefined) out.message = rule.message;
  if (rule.messageExpression !== undefined) out.messageExpression = rule.messageExpression;
  if (rule.reason !== undefined) out.reason = rule.reason;
  if (rule.fieldPath !== undefined) out.fieldPath = rule.fieldPath;
  if (rule.optionalOldSelf !== undefined) out.optionalOldSelf = rule.optionalOldSelf;
  return out;
}
