import { describe, expect, it } from "vitest";
import { created, createErrors, type Kind, updateErrors } from "./write-path.js";

const ConfigMap: Kind = ["", "v1", "ConfigMap"];
const configMap = (fields: Record<string, unknown>): Record<string, unknown> => ({
  metadata: { name: "c", namespace: "default" },
  ...fields,
});

describe("config-map strategy", () => {
  it("accepts valid keys", () => {
    expect(createErrors(ConfigMap, configMap({ data: { "app.properties": "x", KEY_1: "y" } }))).toEqual([]);
  });

  it("checks key names and a key in both maps", () => {
    expect(createErrors(ConfigMap, configMap({ data: { a: "1", ".": "2" }, binaryData: { a: "AA==" } }))).toEqual([
      `data[.]: Invalid value: ".": must not be '.'`,
      'data[a]: Invalid value: "a": duplicate of key present in binaryData',
    ]);
  });

  it("limits the total size to 1 MiB, reported on the whole object", () => {
    expect(createErrors(ConfigMap, configMap({ data: { a: "x".repeat(1024 * 1024), b: "y" } }))).toEqual([
      "[]: Too long: may not be more than 1048576 bytes",
    ]);
  });

  it("freezes data, binaryData and the flag once immutable", () => {
    const old = created(ConfigMap, configMap({ data: { a: "1" }, immutable: true }));
    expect(updateErrors(ConfigMap, configMap({ data: { a: "1" }, immutable: true }), old)).toEqual([]);
    expect(
      updateErrors(ConfigMap, configMap({ data: { a: "2" }, binaryData: { b: "AA==" }, immutable: false }), old),
    ).toEqual([
      "immutable: Forbidden: field is immutable when `immutable` is set",
      "data: Forbidden: field is immutable when `immutable` is set",
      "binaryData: Forbidden: field is immutable when `immutable` is set",
    ]);
    const mutable = created(ConfigMap, configMap({ data: { a: "1" } }));
    expect(updateErrors(ConfigMap, configMap({ data: { a: "2" } }), mutable)).toEqual([]);
  });
});
