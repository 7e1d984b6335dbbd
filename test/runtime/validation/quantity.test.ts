import { describe, expect, it } from "vitest";
import { quantityValue } from "../../../runtime/validation/quantity.js";

describe("quantityValue", () => {
  it.each([
    ["500m", 0.5],
    ["1.5", 1.5],
    ["2Ki", 2048],
    ["1Gi", 2 ** 30],
    ["3M", 3e6],
    ["2e3", 2000],
    [".5", 0.5],
    [4, 4],
  ])("%s is %d", (q, v) => {
    expect(quantityValue(q)).toBeCloseTo(v);
  });

  it.each(["", "1.2.3", "5Gb", "abc", null])("%j is not a quantity", (q) => {
    expect(quantityValue(q)).toBeUndefined();
  });
});
