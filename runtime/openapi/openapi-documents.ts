// The OpenAPI documents one server serves: the built-in ones generated from schemas/ (JSON files read on first
// use, they are megabytes a server never asked for them should not pay for, and shared by every server in the
// process), plus group/versions registered while the server runs (custom resources). Registering or
// removing one gives /openapi/v2 and the /openapi/v3 index new content, so new ETags and new `hash` URLs.
import type { ServedGroupVersion } from "../discovery/served.js";
import { readPackageJson } from "../package-files.js";
import { buildOpenApiV2Resources, type OpenApiV2Parts } from "./build-v2.js";
import { buildOpenApiV3Index, buildOpenApiV3Resources, openApiV3Path } from "./build-v3.js";
import { canonicalJson } from "./canonical-json.js";
import { encodeOpenApiV2 } from "./gnostic-v2.js";
import type { OpenApiInput } from "./openapi-input.js";
import type { MetaDefinitions } from "./openapi-routes.js";
import type { Schema } from "./schema-refs.js";
import { ServedDocument } from "./served-document.js";

type Doc = Record<string, unknown>;

interface Registered {
  v3: ServedDocument;
  v2: OpenApiV2Parts;
}

const loadedAt = new Date();

let builtinV2Document: Promise<Doc> | undefined;
let builtinV2: Promise<ServedDocument> | undefined;
let builtinHashes: Promise<Record<string, string>> | undefined;
let builtinIndex: Promise<ServedDocument> | undefined;
let metaInput: Promise<Omit<OpenApiInput, "schemas"> & { schemas: Record<string, Schema> }> | undefined;
const builtinV3 = new Map<string, Promise<ServedDocument>>();

function v2Document(): Promise<Doc> {
  builtinV2Document ??= readPackageJson<Doc>("generated/openapi/v2.json");
  return builtinV2Document;
}

/** The generated index's `hash` of each built-in v3 document, by path (`apis/apps/v1`). */
function v3Hashes(): Promise<Record<string, string>> {
  builtinHashes ??= readPackageJson<{ paths: Record<string, { serverRelativeURL: string }> }>(
    "generated/openapi/v3/index.json",
  ).then(({ paths }) =>
    Object.fromEntries(
      Object.entries(paths).map(([path, { serverRelativeURL }]) => [
        path,
        new URL(serverRelativeURL, "http://index").searchParams.get("hash") ?? "",
      ]),
    ),
  );
  return builtinHashes;
}

/** The meta definitions (ObjectMeta, Status, DeleteOptions, …) a registered group/version's operations refer to. */
function meta(): Promise<OpenApiInput> {
  metaInput ??= readPackageJson<{ version: string; meta: MetaDefinitions; schemas: Record<string, Schema> }>(
    "generated/openapi/meta.json",
  );
  return metaInput;
}

function servedV2(document: Doc, lastModified: Date): ServedDocument {
  return new ServedDocument(canonicalJson(document), lastModified, () => encodeOpenApiV2(document));
}

function servedIndex(hashes: Record<string, string>, lastModified: Date): ServedDocument {
  return new ServedDocument(canonicalJson(buildOpenApiV3Index(hashes)), lastModified);
}

export class OpenApiDocuments {
  readonly #registered = new Map<string, Registered>();
  /** v3 paths (`apis/<group>/<version>`, `apis/<group>` when none of its versions is left) turned off. */
  readonly #disabled: ReadonlySet<string>;
  #changedAt = loadedAt;
  #v2: Promise<ServedDocument> | undefined;
  #index: Promise<ServedDocument> | undefined;

  /** `disabled`: built-in group/versions on by default that this server does not serve (--runtime-config). */
  constructor(disabled: readonly { group: string; version: string }[] = [], served: readonly { group: string }[] = []) {
    const paths = disabled.map(openApiV3Path);
    for (const group of new Set(disabled.map((gv) => gv.group))) {
      if (group !== "" && !served.some((gv) => gv.group === group)) paths.push(`apis/${group}`);
    }
    this.#disabled = new Set(paths);
  }

  /**
   * Serves (or serves anew) the OpenAPI of a group/version that is not built in: its resources' operations
   * in /openapi/v2 and in its own v3 document `apis/<group>/<version>`. `schemas` are OpenAPI v3 component
   * schemas by definition name (refs `#/components/schemas/<name>`) for its kinds and whatever they refer to
   * beyond the meta definitions, which are built in. `v2Schemas` replace them in /openapi/v2 where the two
   * forms differ (custom resources).
   */
  async setGroupVersion(
    gv: ServedGroupVersion,
    schemas: Record<string, Schema>,
    v2Schemas: Record<string, Schema> = {},
  ): Promise<void> {
    const path = openApiV3Path(gv);
    if (path in (await v3Hashes())) throw new Error(`OpenAPI for ${path} is built in and cannot be replaced`);
    await this.#register(gv, schemas, v2Schemas);
  }

  async #register(
    gv: ServedGroupVersion,
    schemas: Record<string, Schema>,
    v2Schemas: Record<string, Schema> = {},
  ): Promise<void> {
    const path = openApiV3Path(gv);
    const base = await meta();
    const input: OpenApiInput = { ...base, schemas: { ...base.schemas, ...schemas } };
    const now = new Date();
    this.#registered.set(path, {
      v3: new ServedDocument(canonicalJson(buildOpenApiV3Resources(gv, input)), now),
      v2: buildOpenApiV2Resources(gv, { ...input, schemas: { ...input.schemas, ...v2Schemas } }),
    });
    this.#changed(now);
  }

  /**
   * Serves a built-in group/version that is off by default (enabled by --runtime-config), or one served with
   * some of its resources off, from its generated schemas, as if registered at run time.
   */
  async enableBuiltin(gv: ServedGroupVersion): Promise<void> {
    const document = await readPackageJson<{ components: { schemas: Record<string, Schema> } }>(
      `generated/openapi/v3/${openApiV3Path(gv)}.json`,
    );
    await this.#register(gv, document.components.schemas);
  }

  /** Stops serving a group/version set with setGroupVersion; false when none was. */
  removeGroupVersion(group: string, version: string): boolean {
    const removed = this.#registered.delete(openApiV3Path({ group, version }));
    if (removed) this.#changed(new Date());
    return removed;
  }

  /** /openapi/v2: the built-in document with the registered group/versions' paths and definitions. */
  v2(): Promise<ServedDocument> {
    this.#v2 ??= this.#buildV2();
    return this.#v2;
  }

  /** /openapi/v3: the path and content hash of every v3 document. */
  v3Index(): Promise<ServedDocument> {
    this.#index ??= this.#buildIndex();
    return this.#index;
  }

  /** The v3 document of `api/v1`, `apis/<group>` or `apis/<group>/<version>`; undefined when none is served. */
  async v3(path: string): Promise<ServedDocument | undefined> {
    const registered = this.#registered.get(path);
    if (registered) return registered.v3;
    if (!(path in (await v3Hashes())) || this.#disabled.has(path)) return undefined;
    let served = builtinV3.get(path);
    if (!served) {
      // `path` is a key of the generated index, so it names a generated document and nothing else.
      served = readPackageJson<Doc>(`generated/openapi/v3/${path}.json`).then(
        (document) => new ServedDocument(canonicalJson(document), loadedAt),
      );
      builtinV3.set(path, served);
    }
    return served;
  }

  #changed(at: Date): void {
    this.#changedAt = at;
    this.#v2 = undefined;
    this.#index = undefined;
  }

  async #buildV2(): Promise<ServedDocument> {
    const base = await v2Document();
    if (this.#registered.size === 0 && this.#disabled.size === 0) {
      builtinV2 ??= Promise.resolve(servedV2(base, loadedAt));
      return builtinV2;
    }
    // Built-in definitions win: a registered group/version brings its own copy of the meta definitions. A
    // registered built-in group/version (served with fewer resources) replaces the built-in paths of it.
    const replaced = [...this.#disabled, ...this.#registered.keys()];
    const paths = Object.fromEntries(
      Object.entries(base.paths as Doc).filter(([path]) => !replaced.some((d) => path.startsWith(`/${d}/`))),
    );
    const definitions: Doc = {};
    for (const { v2 } of this.#registered.values()) {
      Object.assign(paths, v2.paths);
      Object.assign(definitions, v2.definitions);
    }
    Object.assign(definitions, base.definitions as Doc);
    return servedV2({ ...base, paths, definitions }, this.#changedAt);
  }

  async #buildIndex(): Promise<ServedDocument> {
    const hashes = await v3Hashes();
    if (this.#registered.size === 0 && this.#disabled.size === 0) {
      builtinIndex ??= Promise.resolve(servedIndex(hashes, loadedAt));
      return builtinIndex;
    }
    const all = Object.fromEntries(Object.entries(hashes).filter(([path]) => !this.#disabled.has(path)));
    for (const [path, { v3 }] of this.#registered) all[path] = v3.etag;
    return servedIndex(all, this.#changedAt);
  }
}
