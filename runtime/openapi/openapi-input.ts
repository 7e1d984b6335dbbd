// What the OpenAPI builders need besides the served group/versions: every schema their operations may reach.
import type { MetaDefinitions } from "./openapi-routes.js";
import type { Schema } from "./schema-refs.js";

export interface OpenApiInput {
  /** OpenAPI v3 component schemas by definition name; refs are `#/components/schemas/<name>`. */
  schemas: Record<string, Schema>;
  meta: MetaDefinitions;
  /** info.version of the documents. */
  version: string;
}

export const v3RefPrefix = "#/components/schemas/";
