// All schema files loaded together, with `$ref` resolution across files.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "yaml";
import type { GroupVersionKind, KindEntry, SchemaFile, SchemaNode } from "./model.js";

export interface LoadedFile {
  /** Path below schemas/ without `.yaml`: "apps/v1", "core/v1", "meta/v1". */
  id: string;
  /** Path as written in generated headers and error messages: "schemas/apps/v1.yaml". */
  path: string;
  file: SchemaFile;
}

export interface DefinitionId {
  fileId: string;
  name: string;
}

export interface KindInfo {
  file: LoadedFile;
  entry: KindEntry;
  gvk: GroupVersionKind;
}

/** Folder of a group below schemas/: the core group is `core`, meta.k8s.io shares `meta` with the shared types. */
export function groupDir(group: string): string {
  if (group === "") return "core";
  if (group === "meta.k8s.io") return "meta";
  return group;
}

export class SchemaError extends Error {
  constructor(
    readonly path: string,
    readonly location: string,
    message: string,
  ) {
    super(`${path}: ${location}: ${message}`);
  }
}

export class SchemaSet {
  readonly files: LoadedFile[];
  private readonly byId: Map<string, LoadedFile>;

  constructor(files: LoadedFile[]) {
    this.files = [...files].sort((a, b) => a.id.localeCompare(b.id));
    this.byId = new Map(this.files.map((f) => [f.id, f]));
  }

  file(id: string): LoadedFile {
    const f = this.byId.get(id);
    if (!f) throw new Error(`no schema file ${id}`);
    return f;
  }

  hasFile(id: string): boolean {
    return this.byId.has(id);
  }

  /** `#/definitions/X` in the same file, or `../<dir>/<name>.yaml#/definitions/X`. */
  resolveRef(fromFileId: string, ref: string): DefinitionId {
    const hash = ref.indexOf("#/definitions/");
    if (hash === -1) throw new Error(`${fromFileId}: unsupported $ref ${ref}`);
    const path = ref.slice(0, hash);
    const name = ref.slice(hash + "#/definitions/".length);
    if (path === "") return { fileId: fromFileId, name };
    const dir = fromFileId.split("/").slice(0, -1);
    const parts = [...dir];
    for (const seg of path.replace(/\.yaml$/, "").split("/")) {
      if (seg === "..") parts.pop();
      else if (seg !== ".") parts.push(seg);
    }
    return { fileId: parts.join("/"), name };
  }

  tryDefinition(id: DefinitionId): SchemaNode | undefined {
    return this.byId.get(id.fileId)?.file.definitions[id.name];
  }

  definition(id: DefinitionId): SchemaNode {
    const def = this.tryDefinition(id);
    if (!def) throw new Error(`no definition ${id.name} in schemas/${id.fileId}.yaml`);
    return def;
  }

  /** Name of the definition in OpenAPI documents: io.k8s.api.apps.v1.Deployment. */
  openapiName(id: DefinitionId): string {
    return `${this.file(id.fileId).file.openapi.prefix}.${id.name}`;
  }

  /** Fully qualified protobuf message, or undefined for files without a protobuf package. */
  protoMessage(id: DefinitionId): string | undefined {
    const pkg = this.file(id.fileId).file.protobuf?.package;
    return pkg ? `${pkg}.${id.name}` : undefined;
  }

  /** Every kind declared by a file with a group and version, in file then kind order. */
  kinds(): KindInfo[] {
    const out: KindInfo[] = [];
    for (const file of this.files) {
      const { group, version } = file.file;
      if (group === undefined || version === undefined) continue;
      for (const entry of file.file.kinds ?? []) {
        out.push({ file, entry, gvk: { group, version, kind: entry.kind } });
      }
    }
    return out;
  }

  /** Kinds with a REST mapping. */
  servedKinds(): KindInfo[] {
    return this.kinds().filter((k) => k.entry.resource !== undefined);
  }
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(path));
    else if (entry.name.endsWith(".yaml")) out.push(path);
  }
  return out;
}

/** Loads every `*.yaml` below `dir` (the repository's schemas/ folder). */
export function loadSchemaSet(dir: string, displayRoot = "schemas"): SchemaSet {
  const files = walk(dir).map((path) => {
    const id = relative(dir, path)
      .replace(/\\/g, "/")
      .replace(/\.yaml$/, "");
    const file = parse(readFileSync(path, "utf8")) as SchemaFile;
    return { id, path: `${displayRoot}/${id}.yaml`, file };
  });
  return new SchemaSet(files);
}

/** A set from in-memory files, for tests: `{ "apps/v1": {...} }`. */
export function schemaSetOf(files: Record<string, SchemaFile>): SchemaSet {
  return new SchemaSet(Object.entries(files).map(([id, file]) => ({ id, path: `schemas/${id}.yaml`, file })));
}
