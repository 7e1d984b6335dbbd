// The schema of a kind as the policy type checker resolves it, as kube's schema resolvers do: a built-in
// kind's OpenAPI v3 definition with every $ref filled in (kube's DefinitionsSchemaResolver), a custom
// kind's published schema — the CustomResourceDefinition version's openAPIV3Schema with apiVersion, kind
// and the full ObjectMeta, as /openapi/v3 publishes it (kube's ClientDiscoveryResolver).
import type { StructuralSchema } from "../../cel/rules/structural-schema.js";
import { toStructuralSchema } from "../../crd/schema/definition-structural-schema.js";
import { isJsonObject, type JsonObject } from "../../object/json-object.js";
import { openApiV3Path } from "../../openapi/build-v3.js";
import { v3RefPrefix } from "../../openapi/openapi-input.js";
import { readPackageJson } from "../../package-files.js";
import type { ServedKind } from "../../registry/served-kind.js";
import type { ResourceApi } from "../../resources/resource-api.js";

type Components = Readonly<Record<string, JsonObject>>;

const objectMetaRef = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
/** Built-in formats name int-or-string where custom resources set the extension; CEL reads both. */
const intOrStringFormat = "int-or-string";

const documents = new Map<string, Promise<Components>>();

/** The component schemas of a generated OpenAPI v3 document (`apis/apps/v1`, or `meta` for the shared ones). */
function components(path: string): Promise<Components> {
  let found = documents.get(path);
  if (found === undefined) {
    // `path` comes from a served built-in group/version, so it names a generated document.
    const file = `generated/openapi/${path === "meta" ? "meta" : `v3/${path}`}.json`;
    found = readPackageJson<JsonObject>(file).then((doc) => {
      const schemas = isJsonObject(doc.components) ? doc.components.schemas : doc.schemas;
      return (isJsonObject(schemas) ? schemas : {}) as Components;
    });
    documents.set(path, found);
  }
  return found;
}

/**
 * A schema with each $ref (also the `allOf: [{$ref}]` form generated for defaulted fields) replaced by its
 * definition; a reference back into itself becomes an empty object, as kube's populateRefs leaves cycles.
 */
function inlineRefs(schema: JsonObject, defs: Components, visiting: Set<string> = new Set()): JsonObject {
  const ref = refOf(schema);
  if (ref !== undefined) {
    const target = defs[ref];
    if (target === undefined || visiting.has(ref)) return { type: "object" };
    visiting.add(ref);
    const { $ref: _ref, allOf: _allOf, ...rest } = schema;
    const resolved = { ...inlineRefs(target, defs, visiting), ...rest };
    visiting.delete(ref);
    return resolved;
  }
  const out: JsonObject = { ...schema };
  if (out.format === intOrStringFormat) out["x-kubernetes-int-or-string"] = true;
  if (isJsonObject(schema.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, child]) => [
        name,
        isJsonObject(child) ? inlineRefs(child, defs, visiting) : child,
      ]),
    );
  }
  if (isJsonObject(schema.items)) out.items = inlineRefs(schema.items, defs, visiting);
  if (isJsonObject(schema.additionalProperties)) {
    out.additionalProperties = inlineRefs(schema.additionalProperties, defs, visiting);
  }
  return out;
}

function refOf(schema: JsonObject): string | undefined {
  const direct = schema.$ref;
  const wrapped = Array.isArray(schema.allOf) && schema.allOf.length === 1 ? schema.allOf[0] : undefined;
  const ref = typeof direct === "string" ? direct : isJsonObject(wrapped) ? wrapped.$ref : undefined;
  return typeof ref === "string" && ref.startsWith(v3RefPrefix) ? ref.slice(v3RefPrefix.length) : undefined;
}

function declaresKind(schema: JsonObject, kind: ServedKind): boolean {
  const gvks = schema["x-kubernetes-group-version-kind"];
  return (
    Array.isArray(gvks) &&
    gvks.some((g) => isJsonObject(g) && g.group === kind.group && g.version === kind.version && g.kind === kind.kind)
  );
}

async function builtinSchema(kind: ServedKind): Promise<StructuralSchema | undefined> {
  const defs = await components(openApiV3Path(kind));
  const root = Object.values(defs).find((schema) => declaresKind(schema, kind));
  return root === undefined ? undefined : toStructuralSchema(inlineRefs(root, defs));
}

async function customSchema(api: ResourceApi, kind: ServedKind): Promise<StructuralSchema | undefined> {
  const definitionKind = api.kinds.kindOf("apiextensions.k8s.io", "v1", "CustomResourceDefinition");
  const definition = kind.custom?.definition.name;
  if (definitionKind === undefined || definition === undefined) return undefined;
  const crd = (await api.get({ kind: definitionKind, name: definition })).object as {
    spec?: { versions?: { name?: string; schema?: { openAPIV3Schema?: unknown } }[] };
  };
  const schema = crd.spec?.versions?.find((v) => v.name === kind.version)?.schema?.openAPIV3Schema;
  if (!isJsonObject(schema)) return undefined;
  const meta = await components("meta");
  const published: JsonObject = {
    ...schema,
    properties: {
      ...(isJsonObject(schema.properties) ? schema.properties : {}),
      apiVersion: { type: "string" },
      kind: { type: "string" },
      metadata: { $ref: `${v3RefPrefix}${objectMetaRef}` },
    },
  };
  return toStructuralSchema(inlineRefs(published, meta));
}

/** Resolves the schema of served kinds, each once: undefined when the kind has none CEL can read. */
export class KindSchemas {
  readonly #resolved = new Map<string, Promise<StructuralSchema | undefined>>();

  constructor(private readonly api: ResourceApi) {}

  schemaOf(kind: ServedKind): Promise<StructuralSchema | undefined> {
    // A custom kind is rebuilt (new viewKey) whenever its definition changes.
    const key = `${kind.group}/${kind.version}/${kind.kind}/${kind.versions.viewKey}`;
    let found = this.#resolved.get(key);
    if (found === undefined) {
      found = kind.custom === undefined ? builtinSchema(kind) : customSchema(this.api, kind);
      // A failed lookup (a definition read that failed) is tried again next time.
      found.catch(() => this.#resolved.delete(key));
      this.#resolved.set(key, found);
    }
    return found;
  }
}
