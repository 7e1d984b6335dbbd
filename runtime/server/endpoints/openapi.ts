// /openapi/v2 and /openapi/v3[/<path>]: the generated documents, imported on first use (they are megabytes of
// source that a server which is never asked for them should not pay for) and kept serialized.

let v2: Promise<string> | undefined;
let v3Index: Promise<{ text: string; paths: Record<string, { serverRelativeURL: string }> }> | undefined;
const v3Documents = new Map<string, Promise<string>>();

const json = (doc: unknown) => `${JSON.stringify(doc)}\n`;

export function openApiV2(): Promise<string> {
  v2 ??= import("../../../generated/openapi/v2.js").then((m) => json(m.default));
  return v2;
}

function index() {
  v3Index ??= import("../../../generated/openapi/v3/index.js").then((m) => ({
    text: json(m.default),
    paths: (m.default as { paths: Record<string, { serverRelativeURL: string }> }).paths,
  }));
  return v3Index;
}

export async function openApiV3Index(): Promise<string> {
  return (await index()).text;
}

export interface OpenApiV3Document {
  text: string;
  /** The `hash` query value that names this content, as listed in the index. */
  hash: string;
}

/** The document of `api/v1`, `apis/<group>` or `apis/<group>/<version>`; undefined when not served. */
export async function openApiV3Document(path: string): Promise<OpenApiV3Document | undefined> {
  const entry = (await index()).paths[path];
  if (!entry) return undefined;
  let text = v3Documents.get(path);
  if (!text) {
    // `path` is a key of the generated index, so it names a generated module and nothing else.
    const module = new URL(`../../../generated/openapi/v3/${path}.js`, import.meta.url).href;
    text = import(module).then((m: { default: unknown }) => json(m.default));
    v3Documents.set(path, text);
  }
  const hash = new URL(entry.serverRelativeURL, "http://x").searchParams.get("hash") ?? "";
  return { text: await text, hash };
}
