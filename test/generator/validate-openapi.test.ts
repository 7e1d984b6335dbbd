import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSchemaSet, schemaSetOf } from "../../generator/schema/schema-set.js";
import { validateOpenApi } from "../../generator/validate/validate-openapi.js";

const schemas = join(import.meta.dirname, "../../schemas");

describe("validateOpenApi", () => {
  it("reports invalid schemas at their definition, once", async () => {
    const set = schemaSetOf({
      "x/v1": {
        openapi: { prefix: "io.x.v1" },
        definitions: {
          Foo: {
            type: "object",
            properties: { a: { type: "strin" as "string" }, b: { $ref: "#/definitions/Bar", default: {} } },
          },
          Bar: { type: "object", required: "nope" as unknown as string[] },
        },
      },
    });
    expect(await validateOpenApi(set)).toEqual([
      "schemas/x/v1.yaml: definitions.Foo.a.type: must be equal to one of the allowed values",
      "schemas/x/v1.yaml: definitions.Bar.required: must be array",
    ]);
  });

  it.skipIf(!existsSync(schemas))("accepts the repository's schemas", async () => {
    const set = loadSchemaSet(schemas);
    expect(await validateOpenApi(set)).toEqual([]);
  });
});
