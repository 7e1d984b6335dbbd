import { describe, expect, it } from "vitest";
import { findJsonPath, JsonPathError, parseJsonPath, printJsonPathValue } from "../../../runtime/codecs/json-path.js";

const pod = {
  metadata: {
    name: "web",
    labels: { app: "web", "app.kubernetes.io/name": "shop" },
  },
  spec: {
    containers: [
      { name: "a", image: "nginx", ports: [{ containerPort: 80 }] },
      { name: "b", image: "busybox", ports: [{ containerPort: 81 }, { containerPort: 82 }] },
    ],
  },
  status: {
    phase: "Running",
    conditions: [
      { type: "Initialized", status: "True" },
      { type: "Ready", status: "False", lastProbe: 3 },
    ],
  },
};

function find(path: string, data: unknown = pod): unknown[] {
  return findJsonPath(parseJsonPath(path), data);
}

describe("findJsonPath", () => {
  it("walks fields and yields nothing for missing keys", () => {
    expect(find(".status.phase")).toEqual(["Running"]);
    expect(find(".status.missing.deeper")).toEqual([]);
    expect(find(".metadata.name.length")).toEqual([]);
  });

  it("escapes dots in field names, also inside bracket keys", () => {
    expect(find(".metadata.labels.app\\.kubernetes\\.io/name")).toEqual(["shop"]);
    expect(find(".metadata.labels['app\\.kubernetes\\.io/name']")).toEqual(["shop"]);
    expect(find(".metadata['labels'].app")).toEqual(["web"]);
  });

  it("indexes, slices, wildcards and unions arrays", () => {
    expect(find(".spec.containers[0].name")).toEqual(["a"]);
    expect(find(".spec.containers[-1].name")).toEqual(["b"]);
    expect(find(".spec.containers[*].name")).toEqual(["a", "b"]);
    expect(find(".spec.containers[0:1].image")).toEqual(["nginx"]);
    expect(find(".spec.containers[*].ports[*].containerPort")).toEqual([80, 81, 82]);
    expect(find(".spec.containers[0,1].name")).toEqual(["a", "b"]);
    expect(find(".metadata.labels.*")).toEqual(["web", "shop"]);
  });

  it("filters by comparison and by existence", () => {
    expect(find('.status.conditions[?(@.type=="Ready")].status')).toEqual(["False"]);
    expect(find(".status.conditions[?(@.type!='Ready')].type")).toEqual(["Initialized"]);
    expect(find(".status.conditions[?(@.lastProbe)].type")).toEqual(["Ready"]);
    expect(find(".status.conditions[?(@.lastProbe>2)].type")).toEqual(["Ready"]);
    expect(find(".spec.containers[?(@.name=='c')].name")).toEqual([]);
  });

  it("descends recursively", () => {
    expect(find("..containerPort")).toEqual([80, 81, 82]);
    expect(find("..image")).toEqual(["nginx", "busybox"]);
  });

  it("throws what client-go reports as an error", () => {
    expect(() => find(".spec.containers[5].name")).toThrow("array index out of bounds: index 5, length 2");
    expect(() => find(".status.phase[0]")).toThrow(JsonPathError);
    expect(() => find('.status.conditions[?(@.lastProbe=="3")]')).toThrow("incompatible types for comparison");
    expect(() => parseJsonPath(".spec[0")).toThrow("unterminated array");
    expect(() => parseJsonPath(".a..b....c")).toThrow("invalid multiple recursive descent");
    expect(() => parseJsonPath(".a range")).toThrow(JsonPathError);
  });
});

describe("printJsonPathValue", () => {
  it("prints scalars as Go's fmt and collections as Go's JSON", () => {
    expect(printJsonPathValue("x")).toBe("x");
    expect(printJsonPathValue(3)).toBe("3");
    expect(printJsonPathValue(true)).toBe("true");
    expect(printJsonPathValue(null)).toBe("<no value>");
    expect(printJsonPathValue({ b: 1, a: ["<x>"] })).toBe('{"a":["\\u003cx\\u003e"],"b":1}');
  });
});
