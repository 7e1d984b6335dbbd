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
});
