// Every message kapi emits must match kube-apiserver's generated.proto field for field: number,
// name, fully qualified type and label, with no upstream field left out. Upstream data only.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { protoEmitter } from "../../generator/emit/proto.js";
import { loadSchemaSet } from "../../generator/schema/schema-set.js";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const upstreamRoot = join(repoRoot, "../shared/upstream");
const upstreamSources = join(upstreamRoot, "staging/src");

/** The aggregator's generated.proto is not in the upstream data; its numbers come from the import overlay. */
const withoutUpstream = new Set(["k8s.io.kube_aggregator.pkg.apis.apiregistration.v1"]);

const scalars = new Set([
  "double",
  "float",
  "int32",
  "int64",
  "uint32",
  "uint64",
  "sint32",
  "sint64",
  "fixed32",
  "fixed64",
  "sfixed32",
  "sfixed64",
  "bool",
  "string",
  "bytes",
]);

/** "name number type label" of a field, with the type fully qualified. */
type FieldShape = { name: string; number: number; type: string; label: string };

function qualify(type: string, pkg: string): string {
  if (scalars.has(type)) return type;
  return type.startsWith(".") ? type.slice(1) : `${pkg}.${type}`;
}

function shapeOf(field: protobuf.Field, pkg: string): FieldShape {
  const label = field instanceof protobuf.MapField ? `map<${field.keyType}>` : field.repeated ? "repeated" : "optional";
  return { name: field.name, number: field.id, type: qualify(field.type, pkg), label };
}

/** package → message → fields, from proto2 sources parsed one by one (types are qualified by hand). */
function messagesOf(sources: string[]): Map<string, Map<string, FieldShape[]>> {
  const out = new Map<string, Map<string, FieldShape[]>>();
  for (const source of sources) {
    const parsed = protobuf.parse(source, { keepCase: true });
    const pkg = parsed.package ?? "";
    const ns = parsed.root.lookup(pkg);
    if (!(ns instanceof protobuf.Namespace)) continue;
    const messages = out.get(pkg) ?? new Map<string, FieldShape[]>();
    for (const nested of ns.nestedArray) {
      if (nested instanceof protobuf.Type)
        messages.set(
          nested.name,
          nested.fieldsArray.map((f) => shapeOf(f, pkg)),
        );
    }
    out.set(pkg, messages);
  }
  return out;
}

function walkProto(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walkProto(path));
    else if (entry.name === "generated.proto") out.push(path);
  }
  return out;
}

describe.skipIf(!existsSync(upstreamRoot))("protobuf parity with upstream generated.proto", () => {
  it("emits every upstream message of its packages and every field with its number, name, type and label", () => {
    const upstream = messagesOf(walkProto(upstreamSources).map((p) => readFileSync(p, "utf8")));
    const emitted = protoEmitter.emit(loadSchemaSet(join(repoRoot, "schemas")));
    const ours = messagesOf(emitted.files.filter((f) => f.path.endsWith(".proto")).map((f) => f.content));

    const problems: string[] = [];
    let messages = 0;
    let fields = 0;
    const skipped: string[] = [];
    for (const [pkg, ourMessages] of ours) {
      // Groups defined by kapi's own schemas (the samples group) have nothing upstream to compare with.
      if (!pkg.startsWith("k8s.io.")) continue;
      const theirMessages = upstream.get(pkg);
      if (!theirMessages || withoutUpstream.has(pkg)) {
        skipped.push(pkg);
        continue;
      }
      for (const name of theirMessages.keys()) {
        if (!ourMessages.has(name)) problems.push(`${pkg}.${name}: upstream message not emitted`);
      }
      for (const [name, ourFields] of ourMessages) {
        const theirFields = theirMessages.get(name);
        if (!theirFields) {
          problems.push(`${pkg}.${name}: not an upstream message`);
          continue;
        }
        messages++;
        const byNumber = new Map(theirFields.map((f) => [f.number, f]));
        for (const field of ourFields) {
          fields++;
          const theirs = byNumber.get(field.number);
          if (!theirs) problems.push(`${pkg}.${name}.${field.name} = ${field.number}: no upstream field`);
          else if (JSON.stringify(theirs) !== JSON.stringify(field)) {
            problems.push(`${pkg}.${name}: ours ${JSON.stringify(field)}, upstream ${JSON.stringify(theirs)}`);
          }
        }
        const ourNumbers = new Set(ourFields.map((f) => f.number));
        for (const f of theirFields) {
          if (!ourNumbers.has(f.number)) problems.push(`${pkg}.${name}.${f.name} = ${f.number}: missing`);
        }
      }
    }
    console.log(
      `proto parity: ${messages} messages, ${fields} fields compared; no upstream package: ${skipped.join(", ")}`,
    );
    expect(problems).toEqual([]);
    expect(skipped).toEqual([...withoutUpstream]);
    expect(messages).toBeGreaterThan(900);
  });
});
