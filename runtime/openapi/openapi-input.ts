// What the OpenAPI builders need: the served group/versions and every schema their operations may reach.
import type { ServedGroupVersion } from "../discovery/served.js";
import type { MetaDefinitions } from "./routes.js";
import type { Schema } from "./schema-refs.js";

export interface OpenApiInput {
  groupVersions: ServedGroupVersion[];
  /** OpenAPI v3 component schemas by definition name; refs are `#/components/schemas/<name>`. */
  schemas: Record<string, Schema>;
  meta: MetaDefinitions;
  /** info.version of the documents. */
  version: string;
}

export const v3RefPrefix = "#/components/schemas/";
