// Walking OpenAPI schema objects: only keywords that hold schemas are followed, so a property named `$ref`
// or a `default` value that looks like a schema is never mistaken for one.
export type Schema = Record<string, unknown>;

const schemaMaps = ["properties", "patternProperties"];
const schemaLists = ["allOf", "anyOf", "oneOf"];
const schemaValues = ["items", "additionalProperties", "not"];

function isSchema(v: unknown): v is Schema {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Rebuilds a schema bottom-up, `f` applied to every schema object after its children. */
export function mapSchema(schema: Schema, f: (s: Schema) => Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (schemaMaps.includes(key) && isSchema(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSchema(v) ? mapSchema(v, f) : v]));
    } else if (schemaLists.includes(key) && Array.isArray(value)) {
      out[key] = value.map((v) => (isSchema(v) ? mapSchema(v, f) : v));
    } else if (schemaValues.includes(key) && isSchema(value)) {
      out[key] = mapSchema(value, f);
    } else {
      out[key] = value;
    }
  }
  return f(out);
}

/** Every `$ref` below a schema. */
export function schemaRefs(schema: Schema): string[] {
  const refs: string[] = [];
  mapSchema(schema, (s) => {
    if (typeof s.$ref === "string") refs.push(s.$ref);
    return s;
  });
  return refs;
}

/** Names of the schemas reachable from `roots`, sorted; refs look like `<refPrefix><name>`. */
export function reachableSchemas(roots: string[], schemas: Record<string, Schema>, refPrefix: string): string[] {
  const seen = new Set<string>();
  const queue = [...roots];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (seen.has(name)) continue;
    const schema = schemas[name];
    if (!schema) throw new Error(`OpenAPI schema ${name} is not defined`);
    seen.add(name);
    for (const ref of schemaRefs(schema)) {
      if (ref.startsWith(refPrefix)) queue.push(ref.slice(refPrefix.length));
    }
  }
  return [...seen].sort();
}
