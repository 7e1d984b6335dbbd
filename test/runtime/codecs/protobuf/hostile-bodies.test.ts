// Protobuf request bodies that are truncated, corrupted or random: decoding answers 400 BadRequest (or
// decodes what is still a message), never anything else and never a crash.
import { describe, expect, it } from "vitest";
import { decodeBody } from "../../../../runtime/codecs/decode-body.js";
import { protobufPrefix } from "../../../../runtime/codecs/protobuf/envelope.js";
import { encodeProtobuf } from "../../../../runtime/codecs/protobuf/protobuf-response.js";
import { StatusError } from "../../../../runtime/errors/status-error.js";
import { fuzzObject, type KindCase, kindsWithMessages, random } from "./fuzz-objects.js";

const protobuf = "application/vnd.kubernetes.protobuf";
const wanted = ["ConfigMap", "Namespace", "Deployment", "Service", "CustomResourceDefinition", "Lease", "Role"];

/** Decodes `body`; returns "ok" or the code of the StatusError, and lets anything else fail the test. */
function outcome(body: Buffer, c: KindCase): number | "ok" {
  try {
    decodeBody(protobuf, body, c.gvk);
    return "ok";
  } catch (error) {
    if (error instanceof StatusError) return error.code;
    throw new Error(`${c.gvk.kind} body ${body.toString("hex").slice(0, 200)}: ${String(error)}`);
  }
}

describe("hostile protobuf bodies", () => {
  const kinds = kindsWithMessages().filter((k) => wanted.includes(k.gvk.kind) && !k.gvk.version.includes("beta"));

  it("are refused with 400 or decoded, never anything else", () => {
    const next = random(20260101);
    const int = (below: number) => Math.floor(next() * below);
    const codes = new Map<number | "ok", number>();
    let tried = 0;
    const attempt = (body: Buffer, c: KindCase) => {
      const code = outcome(body, c);
      codes.set(code, (codes.get(code) ?? 0) + 1);
      tried++;
    };
    for (const c of kinds) {
      for (let seed = 0; seed < 20; seed++) {
        const valid = encodeProtobuf(fuzzObject(c, seed));
        for (let i = 0; i < 15; i++) attempt(valid.subarray(0, int(valid.length)), c);
        for (let i = 0; i < 15; i++) {
          const flipped = Buffer.from(valid);
          for (let n = 1 + int(3); n > 0; n--) flipped[4 + int(flipped.length - 4)] = int(256);
          attempt(flipped, c);
        }
        const noise = Buffer.from(Array.from({ length: int(64) }, () => int(256)));
        attempt(Buffer.concat([protobufPrefix, noise]), c);
        attempt(noise, c);
      }
    }
    expect(tried).toBeGreaterThan(3000);
    expect([...codes.keys()].every((code) => code === "ok" || code === 400)).toBe(true);
    expect(codes.get(400)).toBeGreaterThan(tried / 2);
  });

  /** The 400's message for `body` sent to an endpoint of `kind`. */
  function refusal(body: Buffer, gvk: { group: string; version: string; kind: string }): string {
    try {
      decodeBody(protobuf, body, gvk);
    } catch (error) {
      if (error instanceof StatusError && error.code === 400) return error.message;
      throw error;
    }
    throw new Error("decoded");
  }

  const configMaps = { group: "", version: "v1", kind: "ConfigMap" };
  const typeMeta = Buffer.from([0x0a, 0x0f, 0x0a, 0x02, 0x76, 0x31, 0x12, 0x09, ...Buffer.from("ConfigMap")]);

  // Checked against kube-apiserver v1.36.2 (POST to a namespace's configmaps).
  it("answers truncated bodies, impossible lengths and wrong wire types as kube does", () => {
    const valid = encodeProtobuf({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "pbh" }, data: { a: "b" } });
    expect(refusal(valid.subarray(0, valid.length - 5), configMaps)).toBe(
      "the object provided is unrecognized (must be of type ConfigMap): unexpected EOF (6b3873000a0f0a0276311209436f6e6669674d6170120f0a050a03706268 ...)",
    );
    const huge = Buffer.from([
      ...protobufPrefix,
      0x12,
      0x80,
      0x80,
      0x80,
      0x80,
      0x80,
      0x80,
      0x80,
      0x80,
      0x40,
      0x78,
      0x78,
    ]);
    expect(refusal(huge, configMaps)).toBe(
      "the object provided is unrecognized (must be of type ConfigMap): unexpected EOF (6b387300128080808080808080407878)",
    );
    // ObjectMeta sent as a varint: gogo names the embedded Go field, ObjectMeta.
    const wrongWire = Buffer.concat([protobufPrefix, typeMeta, Buffer.from([0x12, 0x02, 0x08, 0x01])]);
    expect(refusal(wrongWire, configMaps)).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: wrong wireType = 0 for field ObjectMeta',
    );
  });

  it("refuses a RawExtension holding broken JSON with a 400 (kube's handler fails on it without an answer)", () => {
    const revision = encodeProtobuf({
      apiVersion: "apps/v1",
      kind: "ControllerRevision",
      metadata: { name: "pbh" },
      revision: 1,
      data: { a: 1 },
    });
    const broken = Buffer.from(revision);
    broken.write('{"a"x1', revision.indexOf('{"a":1}'));
    expect(refusal(broken, { group: "apps", version: "v1", kind: "ControllerRevision" })).toBe(
      "ControllerRevision in version \"v1\" cannot be handled as a ControllerRevision: invalid character 'x' after object key",
    );
  });

  it("skips an unknown field of groups nested 700,000 deep, as kube does (it then asks for the missing name)", () => {
    const depth = 700000;
    // Field 99 as a start group (tag 0x9b 0x06), then as many end groups (0x9c 0x06).
    const raw = Buffer.concat([Buffer.alloc(2 * depth, "9b06", "hex"), Buffer.alloc(2 * depth, "9c06", "hex")]);
    const length = [];
    for (let n = raw.length; ; n = Math.floor(n / 128)) {
      if (n < 0x80) {
        length.push(n);
        break;
      }
      length.push((n % 128) | 0x80);
    }
    const body = Buffer.concat([protobufPrefix, typeMeta, Buffer.from([0x12, ...length]), raw]);
    expect(decodeBody(protobuf, body, configMaps).value).toEqual({ apiVersion: "v1", kind: "ConfigMap" });
  });
});
