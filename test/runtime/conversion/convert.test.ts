import { describe, expect, it } from "vitest";
import { conversionTable } from "../../../generated/conversions.js";
import { ConversionError, type ConversionTable, convert } from "../../../runtime/conversion/convert.js";
import type { JsonObject } from "../../../runtime/conversion/json-values.js";

const serviceCIDR: JsonObject = {
  apiVersion: "networking.k8s.io/v1beta1",
  kind: "ServiceCIDR",
  metadata: { name: "extra", labels: { a: "b" } },
  spec: { cidrs: ["10.96.0.0/16"] },
  status: { conditions: [{ type: "Ready", status: "True", lastTransitionTime: "2024-01-01T00:00:00Z" }] },
  unknownField: true,
};

describe("convert", () => {
  it("converts generated field-by-field pairs and round-trips", () => {
    const v1 = convert(conversionTable, serviceCIDR, "v1");
    const { unknownField: _, ...known } = serviceCIDR;
    expect(v1).toEqual({ ...known, apiVersion: "networking.k8s.io/v1" });
    expect(convert(conversionTable, v1, "v1beta1")).toEqual(known);
    (v1.spec as { cidrs: string[] }).cidrs.push("fd00::/108");
    expect(serviceCIDR.spec).toEqual({ cidrs: ["10.96.0.0/16"] });
  });

  it("goes through the hub between two spokes", () => {
    const deviceClass: JsonObject = {
      apiVersion: "resource.k8s.io/v1beta2",
      kind: "DeviceClass",
      metadata: { name: "gpu" },
      spec: { selectors: [{ cel: { expression: "true" } }] },
    };
    const seen: string[] = [];
    const step = (name: string, apiVersion: string) => (o: JsonObject) => {
      seen.push(name);
      return { ...o, apiVersion };
    };
    const table: ConversionTable = {
      "resource.k8s.io/DeviceClass": {
        hub: "v1",
        pairs: {
          v1: { v1beta1: step("v1→v1beta1", "resource.k8s.io/v1beta1") },
          v1beta1: { v1: null },
          v1beta2: { v1: step("v1beta2→v1", "resource.k8s.io/v1") },
        },
      },
    };
    expect(convert(table, deviceClass, "v1beta1").apiVersion).toBe("resource.k8s.io/v1beta1");
    expect(seen).toEqual(["v1beta2→v1", "v1→v1beta1"]);
    expect(convert(conversionTable, deviceClass, "v1beta1")).toEqual({
      ...deviceClass,
      apiVersion: "resource.k8s.io/v1beta1",
    });
  });

  it("fails like kube-apiserver for unknown versions and missing conversions", () => {
    const table: ConversionTable = {
      "example.com/Widget": { hub: "v1", pairs: { v1: { v2: null }, v2: { v1: null } } },
    };
    const widget = { apiVersion: "example.com/v2", kind: "Widget" };
    expect(() => convert(table, widget, "v1")).toThrow(
      new ConversionError("converting (v2.Widget) to (v1.Widget): unknown conversion"),
    );
    expect(() => convert(table, widget, "v3")).toThrow('no kind "Widget" is registered for version "example.com/v3"');
    expect(convert(table, widget, "v2")).toEqual(widget);
  });
});
