// CustomResourceDefinition manifests (apiextensions.k8s.io/v1 YAML, several documents a file) read into what the
// SDK generator needs: the names, the scope and each served version's schema. Documents of other kinds are
// skipped, so an operator's whole install bundle can be given as is.
import { parseAllDocuments } from "yaml";

/** The part of a CRD's JSONSchemaProps that decides a TypeScript type (a structural schema's keywords). */
export interface CrdSchema {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, CrdSchema>;
  additionalProperties?: CrdSchema | boolean;
  items?: CrdSchema;
  required?: string[];
  enum?: unknown[];
  nullable?: boolean;
  "x-kubernetes-int-or-string"?: boolean;
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  "x-kubernetes-embedded-resource"?: boolean;
}

export interface CrdVersion {
  name: string;
  /** spec.versions[].schema.openAPIV3Schema; absent when the version declares none. */
  schema: CrdSchema | undefined;
}

export interface CrdManifest {
  /** The file the CRD came from, as named on the command line. */
  source: string;
  group: string;
  kind: string;
  listKind: string;
  plural: string;
  namespaced: boolean;
  /** Served versions only, in the CRD's order. */
  versions: CrdVersion[];
}

export class CrdManifestError extends Error {
  override name = "CrdManifestError";
}

const crdApiVersion = "apiextensions.k8s.io/v1";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

class DocumentReader {
  constructor(readonly where: string) {}

  fail(path: string, message: string): never {
    throw new CrdManifestError(`${this.where}: ${path}: ${message}`);
  }

  object(parent: Json, key: string, path: string): Json {
    const value = parent[key];
    if (!isObject(value)) this.fail(path, "must be an object");
    return value;
  }

  string(parent: Json, key: string, path: string): string {
    const value = parent[key];
    if (typeof value !== "string" || value === "") this.fail(path, "must be a non-empty string");
    return value;
  }

  optionalString(parent: Json, key: string, path: string): string | undefined {
    return parent[key] === undefined ? undefined : this.string(parent, key, path);
  }
}

function readVersions(reader: DocumentReader, spec: Json): CrdVersion[] {
  const versions = spec.versions;
  if (!Array.isArray(versions) || versions.length === 0) reader.fail("spec.versions", "must be a non-empty list");
  const out: CrdVersion[] = [];
  versions.forEach((entry: unknown, i) => {
    const path = `spec.versions[${i}]`;
    if (!isObject(entry)) reader.fail(path, "must be an object");
    const name = reader.string(entry, "name", `${path}.name`);
    if (entry.served !== true) return;
    const schema = isObject(entry.schema) ? entry.schema.openAPIV3Schema : undefined;
    if (schema !== undefined && !isObject(schema)) reader.fail(`${path}.schema.openAPIV3Schema`, "must be an object");
    out.push({ name, schema: schema as CrdSchema | undefined });
  });
  return out;
}

function readCrd(reader: DocumentReader, doc: Json, source: string): CrdManifest {
  if (doc.apiVersion !== crdApiVersion) reader.fail("apiVersion", `must be ${crdApiVersion}`);
  const spec = reader.object(doc, "spec", "spec");
  const names = reader.object(spec, "names", "spec.names");
  const kind = reader.string(names, "kind", "spec.names.kind");
  const scope = reader.string(spec, "scope", "spec.scope");
  if (scope !== "Namespaced" && scope !== "Cluster") reader.fail("spec.scope", "must be Namespaced or Cluster");
  return {
    source,
    group: reader.string(spec, "group", "spec.group"),
    kind,
    listKind: reader.optionalString(names, "listKind", "spec.names.listKind") ?? `${kind}List`,
    plural: reader.string(names, "plural", "spec.names.plural"),
    namespaced: scope === "Namespaced",
    versions: readVersions(reader, spec),
  };
}

/** Every CustomResourceDefinition of one YAML text; throws CrdManifestError naming the file and document. */
export function readCrdManifests(text: string, source: string): CrdManifest[] {
  const out: CrdManifest[] = [];
  parseAllDocuments(text).forEach((document, i) => {
    const where = `${source}: document ${i + 1}`;
    const error = document.errors[0];
    if (error) throw new CrdManifestError(`${where}: ${error.message}`);
    const doc: unknown = document.toJS();
    if (!isObject(doc) || doc.kind !== "CustomResourceDefinition") return;
    out.push(readCrd(new DocumentReader(where), doc, source));
  });
  if (out.length === 0) throw new CrdManifestError(`${source}: no CustomResourceDefinition found`);
  return out;
}
