// OpenAPI validity of the schemas, checked with swagger-parser on one OpenAPI 3.0 document holding every
// definition (the component schemas the OpenAPI documents are built from).
import SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenAPI } from "openapi-types";
import { componentSchemas } from "../openapi/component-schemas.js";
import type { SchemaSet } from "../schema/schema-set.js";

/** The composed document: no paths, every definition under components.schemas. */
export function composedDocument(set: SchemaSet): OpenAPI.Document {
  return {
    openapi: "3.0.0",
    info: { title: "kapi schemas", version: "0" },
    paths: {},
    components: { schemas: componentSchemas(set) },
  } as OpenAPI.Document;
}

export async function validateOpenApi(set: SchemaSet): Promise<string[]> {
  const doc = composedDocument(set);
  try {
    await SwaggerParser.validate(structuredClone(doc));
    return [];
  } catch (err) {
    return problems(set, err);
  }
}

interface ParserDetail {
  message?: string;
  instancePath?: string;
  path?: (string | number)[];
}

/** Consequences of a real error the meta-schema's alternatives add (a schema or else a `$ref`). */
const noise = [/^must have required property '\$ref'$/, /^must match exactly one schema in oneOf$/];

/**
 * swagger-parser reports schema errors as `details` with a JSON path; others carry only a message. A problem
 * seen through a wrapped `$ref` (`allOf.0`) is the referenced definition's, reported there already.
 */
function problems(set: SchemaSet, err: unknown): string[] {
  const e = err as { message?: string; details?: ParserDetail[] };
  const details = e.details ?? [];
  if (details.length === 0) return [`schemas: ${e.message ?? String(err)}`];
  const out = new Set<string>();
  for (const d of details) {
    const message = d.message ?? "invalid";
    if (noise.some((n) => n.test(message))) continue;
    const segments = d.instancePath
      ? d.instancePath.split("/").slice(1).map(decodePointer)
      : (d.path ?? []).map(String);
    if (segments.some((seg, i) => seg === "allOf" && segments[i - 1] !== "properties")) continue;
    out.add(locate(set, segments, message));
  }
  return out.size > 0 ? [...out] : [`schemas: ${e.message ?? String(err)}`];
}

function decodePointer(s: string): string {
  return s.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** `components/schemas/<openapi name>/properties/x/...` → `schemas/<file>.yaml: definitions.<Name>.x: message`. */
function locate(set: SchemaSet, segments: string[], message: string): string {
  const [c, s, name, ...rest] = segments;
  if (c !== "components" || s !== "schemas" || name === undefined) return `schemas: ${segments.join(".")}: ${message}`;
  const file = set.files.find((f) => name.startsWith(`${f.file.openapi.prefix}.`));
  if (!file) return `schemas: ${name}: ${message}`;
  const definition = name.slice(file.file.openapi.prefix.length + 1);
  const path = rest.filter((seg, i) => !(seg === "properties" && i % 2 === 0));
  return `${file.path}: ${["definitions", definition, ...path].join(".")}: ${message}`;
}
