// The custom resource schema the tests build on: a root object whose `spec` object has the given
// properties (and any other keywords for spec).
import {
  type CustomResourceSchema,
  customResourceSchema,
} from "../../../../runtime/crd/schema/custom-resource-schema.js";

export function specSchema(
  properties: Record<string, unknown>,
  spec: Record<string, unknown> = {},
): CustomResourceSchema {
  return customResourceSchema({ type: "object", properties: { spec: { type: "object", properties, ...spec } } });
}
