// The checked-in generated/proto files, as the codec loads them, against kube's generated.proto: every message
// of a package upstream has must carry the same field numbers with the same wire types, repetition and map
// keys, which is what the bytes on the wire depend on. Upstream data only (../shared/upstream).
import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { protoFiles } from "../../../../generated/proto/index.js";
import { protoMessage } from "../../../../runtime/codecs/protobuf/proto-root.js";

const sources = fileURLToPath(new URL("../../../../../shared/upstream/staging/src/", import.meta.url));

/** kube-aggregator's generated.proto is not among the upstream data. */
const notUpstream = "k8s.io.kube_aggregator.pkg.apis.apiregistration.v1";

const wireOfScalar: Record<string, number> = {
  int32: 0,
  int64: 0,
  uint32: 0,
  uint64: 0,
  sint32: 0,
  sint64: 0,
  bool: 0,
  enum: 0,
  fixed64: 1,
  sfixed64: 1,
  double: 1,
  string: 2,
  bytes: 2,
  fixed32: 5,
  sfixed32: 5,
  float: 5,
};

/** How a field travels: its wire type, whether it repeats, and a map's key type. */
function wireShape(field: protobuf.Field): string {
  const wire = field.resolvedType instanceof protobuf.Type ? 2 : wireOfScalar[field.type];
  const repeat = field instanceof protobuf.MapField ? `map<${field.keyType}>` : field.repeated ? "repeated" : "single";
  return `${field.id} wire ${wire} ${repeat}`;
}

function upstreamRoot(): protobuf.Root {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name === "generated.proto") files.push(relative(sources, join(dir, entry.name)));
    }
  };
  walk(sources);
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(sources, target);
  root.loadSync(files, { keepCase: true });
  root.resolveAll();
  return root;
}

function messagesOf(ns: protobuf.NamespaceBase): protobuf.Type[] {
  return ns.nestedArray.filter((n): n is protobuf.Type => n instanceof protobuf.Type);
}

describe.skipIf(!existsSync(sources))("generated/proto wire parity with upstream generated.proto", () => {
  it("has upstream's field numbers, wire types and repetition in every message", () => {
    const upstream = upstreamRoot();
    const problems: string[] = [];
    let compared = 0;
    for (const { package: pkg } of protoFiles) {
      if (pkg === notUpstream || !pkg.startsWith("k8s.io.")) continue;
      const theirs = upstream.lookup(pkg);
      if (!(theirs instanceof protobuf.Namespace)) {
        problems.push(`${pkg}: no upstream package`);
        continue;
      }
      for (const message of messagesOf(theirs)) {
        const ours = protoMessage(`${pkg}.${message.name}`);
        if (ours === undefined) {
          problems.push(`${pkg}.${message.name}: missing`);
          continue;
        }
        const expected = message.fieldsArray.map(wireShape).sort();
        const actual = ours.fieldsArray.map(wireShape).sort();
        if (JSON.stringify(actual) !== JSON.stringify(expected)) {
          problems.push(`${pkg}.${message.name}: ${actual.join(", ")} ≠ upstream ${expected.join(", ")}`);
        }
        compared++;
      }
    }
    expect(problems).toEqual([]);
    expect(compared).toBeGreaterThan(900);
  });
});
