// The structural part of a CRD schema, compiled once: what pruning, defaulting, list-type checks,
// embedded-resource handling and the apply field table walk. Value-validation keywords live in
// ./value-validation.ts. Each node records which of those walks can find work below it, so a walk skips
// subtrees that cannot change.

import { isJsonObject, type JsonObject } from "../../object/json-object.js";

export interface SchemaNode {
  readonly type?: string;
  readonly nullable: boolean;
  readonly hasDefault: boolean;
  readonly default?: unknown;
  readonly preserveUnknownFields: boolean;
  readonly embeddedResource: boolean;
  readonly intOrString: boolean;
  readonly properties: ReadonlyMap<string, SchemaNode>;
  /** additionalProperties: a schema, or null when allowed without one. */
  readonly additionalProperties?: SchemaNode | null;
  readonly items?: SchemaNode;
  readonly listType?: "atomic" | "set" | "map";
  readonly listMapKeys: readonly string[];
  readonly mapType?: "atomic" | "granular";
  /** Properties with a default, in schema order. */
  readonly defaulted: readonly (readonly [string, SchemaNode])[];
  /** A default somewhere below (a property's, an item's or a map value's). */
  readonly defaultsBelow: boolean;
  /** An x-kubernetes-embedded-resource at or below. */
  readonly embeddedBelow: boolean;
  /** A set or map list at or below. */
  readonly listInvariantsBelow: boolean;
}

function children(node: SchemaNode): SchemaNode[] {
  const out = [...node.properties.values()];
  if (node.additionalProperties) out.push(node.additionalProperties);
  if (node.items !== undefined) out.push(node.items);
  return out;
}

function marker<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return allowed.find((a) => a === value);
}

/** Compiles a JSONSchemaProps object (structural) into its node tree. */
export function schemaNode(props: JsonObject): SchemaNode {
  const properties = new Map<string, SchemaNode>();
  if (isJsonObject(props.properties)) {
    for (const [name, child] of Object.entries(props.properties)) {
      if (isJsonObject(child)) properties.set(name, schemaNode(child));
    }
  }
  const additional = props.additionalProperties;
  const additionalProperties = isJsonObject(additional)
    ? schemaNode(additional)
    : typeof additional === "boolean"
      ? null
      : undefined;
  const items = isJsonObject(props.items) ? schemaNode(props.items) : undefined;
  const listType = marker(props["x-kubernetes-list-type"], ["atomic", "set", "map"] as const);
  const mapType = marker(props["x-kubernetes-map-type"], ["atomic", "granular"] as const);
  const shape = {
    nullable: props.nullable === true,
    hasDefault: props.default !== undefined,
    preserveUnknownFields: props["x-kubernetes-preserve-unknown-fields"] === true,
    embeddedResource: props["x-kubernetes-embedded-resource"] === true,
    intOrString: props["x-kubernetes-int-or-string"] === true,
    properties,
    listMapKeys: Array.isArray(props["x-kubernetes-list-map-keys"])
      ? props["x-kubernetes-list-map-keys"].filter((k): k is string => typeof k === "string")
      : [],
    defaulted: [...properties].filter(([, child]) => child.hasDefault),
    ...(typeof props.type === "string" ? { type: props.type } : {}),
    ...(props.default !== undefined ? { default: props.default } : {}),
    ...(additionalProperties !== undefined ? { additionalProperties } : {}),
    ...(items !== undefined ? { items } : {}),
    ...(listType !== undefined ? { listType } : {}),
    ...(mapType !== undefined ? { mapType } : {}),
  };
  const below = children({ ...shape, defaultsBelow: false, embeddedBelow: false, listInvariantsBelow: false });
  return {
    ...shape,
    defaultsBelow: below.some((c) => c.hasDefault || c.defaultsBelow),
    embeddedBelow: shape.embeddedResource || below.some((c) => c.embeddedBelow),
    listInvariantsBelow: listType === "set" || listType === "map" || below.some((c) => c.listInvariantsBelow),
  };
}

/** The schema of an object's entry: its property, else the additionalProperties schema (null: unschematized). */
export function entrySchema(node: SchemaNode, key: string): SchemaNode | null | undefined {
  return node.properties.get(key) ?? node.additionalProperties;
}
