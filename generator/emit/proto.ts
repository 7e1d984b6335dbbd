// generated/proto/<fileId>.proto for every schema file with a protobuf package, and
// generated/proto/index.ts listing them so the runtime codec can load them.
import { buildProtoFiles, type ProtoFile } from "../proto/proto-files.js";
import { protoPath, renderProto } from "../proto/render-proto.js";
import { type Emitter, type GeneratedFile, generatedHeader } from "./emitter.js";

function renderIndex(files: ProtoFile[]): string {
  const entries = files.map(
    (f) => `  { path: ${JSON.stringify(protoPath(f.fileId))}, package: ${JSON.stringify(f.package)} },`,
  );
  return [
    generatedHeader(files.map((f) => f.source)).trimEnd(),
    "",
    "export interface ProtoFileEntry {",
    "  /** Path below generated/proto/, as written in import statements. */",
    "  path: string;",
    "  package: string;",
    "}",
    "",
    "export const protoFiles: readonly ProtoFileEntry[] = [",
    ...entries,
    "];",
    "",
  ].join("\n");
}

export const protoEmitter: Emitter = {
  name: "proto",
  emit(set) {
    const { files, notes } = buildProtoFiles(set);
    if (files.length === 0) return { files: [], notes };
    const out: GeneratedFile[] = files.map((f) => ({ path: `proto/${protoPath(f.fileId)}`, content: renderProto(f) }));
    out.push({ path: "proto/index.ts", content: renderIndex(files) });
    return { files: out, notes };
  },
};
