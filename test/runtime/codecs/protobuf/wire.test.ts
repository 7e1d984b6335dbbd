// Varints written and read back in plain numbers: the 64-bit two's complement of negatives, Go's int32
// truncation, lengths at or above 2^63 wrapping negative as in Go.
import { describe, expect, it } from "vitest";
import { ProtobufError, WireReader } from "../../../../runtime/codecs/protobuf/wire-reader.js";
import { WireWriter } from "../../../../runtime/codecs/protobuf/wire-writer.js";

function written(write: (w: WireWriter) => void): Buffer {
  const w = new WireWriter(1);
  write(w);
  return w.finish();
}

describe("varints", () => {
  it("read back what they wrote, negatives as ten bytes", () => {
    const values = [
      0,
      1,
      127,
      128,
      300,
      2 ** 31 - 1,
      2 ** 32,
      2 ** 53 - 1,
      -1,
      -2,
      -(2 ** 31),
      -(2 ** 40) - 3,
      -(2 ** 53) + 1,
    ];
    for (const n of values) {
      const bytes = written((w) => w.int(n));
      expect(new WireReader(bytes).int64(), String(n)).toBe(n);
      if (n < 0) expect(bytes.length).toBe(10);
    }
    expect(written((w) => w.int(-1)).toString("hex")).toBe("ffffffffffffffffff01");
  });

  it("read int32 as Go does, from the low 32 bits", () => {
    expect(new WireReader(written((w) => w.int(2 ** 32 + 5))).int32()).toBe(5);
    expect(new WireReader(written((w) => w.int(-7))).int32()).toBe(-7);
    expect(new WireReader(Buffer.from("ffffffff0f", "hex")).int32()).toBe(-1);
  });

  it("refuse eleven bytes, a truncated varint and a length at or above 2^63", () => {
    const fail = (hex: string, read: (r: WireReader) => unknown) => {
      expect(() => read(new WireReader(Buffer.from(hex, "hex")))).toThrow(ProtobufError);
    };
    fail("ffffffffffffffffffff01", (r) => r.int64());
    fail("ff", (r) => r.int64());
    fail("80808080808080808001", (r) => r.delimited());
    expect(() => new WireReader(Buffer.from("80808080808080808001", "hex")).delimited()).toThrow(
      "proto: negative length found during unmarshaling",
    );
  });

  it("write lengths of nested values above 127 in place", () => {
    const long = "é".repeat(200);
    const bytes = written((w) => {
      const start = w.begin();
      w.string(long);
      w.end(start);
    });
    const outer = new WireReader(bytes).delimited();
    expect(Buffer.from(outer.delimited().rest()).toString()).toBe(long);
  });
});
