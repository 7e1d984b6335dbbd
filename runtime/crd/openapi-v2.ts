// The OpenAPI v2 form of a custom resource's schema, as kube's apiextensions server publishes it
// (ToStructuralOpenAPIV2): v2 knows neither nullable nor the value-validation combinators, and kubectl's
// v2 validation would refuse fields a schema keeps unknown, so such nodes lose what they declare.
import type { Schema } from "../openapi/schema-refs.js";

const combinators = ["allOf", "anyOf", "oneOf", "not"];

export function toOpenApiV2Schema(schema: Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (combinators.includes(key)) continue;
    out[key] = value;
  }
  if (out.nullable === true) {
    delete out.type;
    delete out.nullable;
    delete out.items;
    delete out.properties;
  }
  if (out["x-kubernetes-preserve-unknown-fields"] === true) {
    delete out.items;
    delete out.properties;
  }
  if (out.properties !== undefined) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties as Record<string, Schema>).map(([name, s]) => [name, toOpenApiV2Schema(s)]),
    );
  }
  if (typeof out.items === "object" && out.items !== null) out.items = toOpenApiV2Schema(out.items as Schema);
  if (typeof out.additionalProperties === "object" && out.additionalProperties !== null) {
    out.additionalProperties = toOpenApiV2Schema(out.additionalProperties as Schema);
  }
  return out;
}
