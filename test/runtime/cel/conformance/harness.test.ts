// The conformance harness itself: proto-JSON values and types convert as the suite means them, the
// result comparison is exact, and the textproto corpus reads into the same shape as the bundled copy.

import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatType, typeName } from "../../../../runtime/cel/common/cel-types.js";
import { ArrayList, CelDuration, CelTimestamp, CelUint, HashMap } from "../../../../runtime/cel/common/values.js";
import { sameValue } from "./compare.js";
import { NeedsProtobuf, typeFromJson, valueFromJson } from "./proto-json.js";
import { bundledSource, TEXTPROTO_DIR, textprotoSource } from "./suite.js";

describe("proto-JSON values", () => {
  it("keeps CEL types apart when comparing", () => {
    expect(sameValue(1n, valueFromJson({ int64Value: "1" }))).toBe(true);
    expect(sameValue(1, valueFromJson({ int64Value: "1" }))).toBe(false);
    expect(sameValue(new CelUint(1n), valueFromJson({ uint64Value: "1" }))).toBe(true);
    expect(sameValue(Number.NaN, valueFromJson({ doubleValue: "NaN" }))).toBe(true);
    expect(sameValue(Number.NEGATIVE_INFINITY, valueFromJson({ doubleValue: "-Infinity" }))).toBe(true);
    expect(sameValue(null, valueFromJson({ nullValue: null }))).toBe(true);
    expect(sameValue(new Uint8Array([104, 105]), valueFromJson({ bytesValue: "aGk=" }))).toBe(true);
  });

  it("compares lists in order and maps in any order", () => {
    const list = valueFromJson({ listValue: { values: [{ int64Value: "1" }, { stringValue: "a" }] } });
    expect(sameValue(new ArrayList([1n, "a"]), list)).toBe(true);
    expect(sameValue(new ArrayList(["a", 1n]), list)).toBe(false);
    const map = valueFromJson({
      mapValue: {
        entries: [
          { key: { stringValue: "a" }, value: { int64Value: "1" } },
          { key: { int64Value: "2" }, value: { boolValue: true } },
        ],
      },
    });
    expect(
      sameValue(
        new HashMap([
          [2n, true],
          ["a", 1n],
        ]),
        map,
      ),
    ).toBe(true);
    expect(
      sameValue(
        new HashMap([
          [new CelUint(2n), true],
          ["a", 1n],
        ]),
        map,
      ),
    ).toBe(false);
  });

  it("reads timestamps and durations, and type values by name", () => {
    const ts = valueFromJson({
      objectValue: {
        "@type": "type.googleapis.com/google.protobuf.Timestamp",
        value: "2009-02-13T23:31:30.000000123Z",
      },
    });
    expect(sameValue(new CelTimestamp(1234567890n, 123), ts)).toBe(true);
    const d = valueFromJson({
      objectValue: { "@type": "type.googleapis.com/google.protobuf.Duration", value: "-1.5s" },
    });
    expect(sameValue(new CelDuration(-1_500_000_000n), d)).toBe(true);
    expect(typeName((valueFromJson({ typeValue: "google.protobuf.Timestamp" }) as { type: never }).type)).toBe(
      "google.protobuf.Timestamp",
    );
  });

  it("flags protobuf messages", () => {
    expect(() => valueFromJson({ objectValue: { "@type": "type.googleapis.com/google.protobuf.Int32Value" } })).toThrow(
      NeedsProtobuf,
    );
    expect(() => typeFromJson({ messageType: "cel.expr.conformance.proto3.TestAllTypes" })).toThrow(NeedsProtobuf);
  });
});

describe("proto-JSON types", () => {
  it("formats as cel-go does", () => {
    expect(formatType(typeFromJson({ mapType: { keyType: { primitive: "STRING" }, valueType: { dyn: {} } } }))).toBe(
      "map(string, dyn)",
    );
    expect(formatType(typeFromJson({ listType: { elemType: { wellKnown: "TIMESTAMP" } } }))).toBe(
      "list(google.protobuf.Timestamp)",
    );
    expect(
      formatType(typeFromJson({ abstractType: { name: "optional_type", parameterTypes: [{ primitive: "INT64" }] } })),
    ).toBe("optional_type(int)");
    expect(formatType(typeFromJson({ type: { primitive: "BOOL" } }))).toBe("type(bool)");
  });
});

describe("sources", () => {
  it("bundles the v0.25.1 files", () => {
    const files = bundledSource().files;
    expect(files.get("basic")?.length).toBeGreaterThan(40);
    expect(files.has("type_deduction")).toBe(true);
  });

  it.skipIf(!existsSync(TEXTPROTO_DIR))("reads the textproto corpus into the bundled shape", () => {
    const basic = textprotoSource()?.files.get("basic") ?? [];
    const bound = basic.find((c) => c.test.name === "self_eval_bound_lookup");
    expect(bound?.test).toMatchObject({
      expr: "x",
      typeEnv: [{ name: "x", ident: { type: { primitive: "INT64" } } }],
      bindings: { x: { value: { int64Value: "123" } } },
      value: { int64Value: "123" },
    });
  });
});
