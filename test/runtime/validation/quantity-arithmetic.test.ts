// Quota's and LimitRanger's quantities: canonical texts as a reference kube-apiserver v1.36.2 prints them
// (recorded by storing each value in a ResourceQuota's spec.hard or a LimitRange and reading it back; kube
// stores a LimitRange's values rounded up to milli-units), sums in the first non-zero summand's format.
import { describe, expect, it } from "vitest";
import {
  addQuantity,
  countQuantity,
  formatQuantity,
  milliValue,
  type Quantity,
  readMilliQuantity,
  readQuantity,
  roundUp,
  wholeValue,
} from "../../../runtime/validation/quantity-arithmetic.js";

const read = (value: string | number, reader = readQuantity): Quantity => {
  const q = reader(value);
  if (q === undefined) throw new Error(`${value} does not parse`);
  return q;
};

const recorded: [string | number, string][] = [
  ["1000m", "1"],
  ["0.5Gi", "512Mi"],
  ["1536Mi", "1536Mi"],
  ["1e3", "1e3"],
  ["1500e-3", "1500e-3"],
  ["1.5", "1500m"],
  ["100Ki", "100Ki"],
  ["1023Ki", "1023Ki"],
  ["0.1", "100m"],
  ["12345678901234k", "12345678901234k"],
  [2048, "2048"],
  ["1Gi", "1Gi"],
  ["1000Mi", "1000Mi"],
  ["1500m", "1500m"],
  ["15e2", "1500"],
  ["1E", "1E"],
  ["1000E", "1"],
  ["512", "512"],
  ["2048", "2048"],
  ["0.5Ki", "512"],
  ["1.5Ki", "1536"],
  ["10e-1", "1"],
  ["1000000u", "1"],
  ["1e-3", "1e-3"],
  ["-1", "-1"],
];

describe("quantity arithmetic", () => {
  it.each(recorded)("prints %s as %s", (value, expected) => {
    expect(formatQuantity(read(value))).toBe(expected);
    expect(formatQuantity(read(value, readMilliQuantity))).toBe(expected);
  });

  it("rounds a LimitRange's values up to milli-units", () => {
    expect(formatQuantity(read("1.0000000001", readMilliQuantity))).toBe("1001m");
  });

  it("rounds Value and MilliValue up", () => {
    expect(wholeValue(read("1500m"))).toBe(2n);
    expect(milliValue(read("0.5m"))).toBe(1n);
  });

  it("adds in the first non-zero summand's format and rounds storage up to whole bytes", () => {
    expect(formatQuantity(addQuantity(read("800m"), read("300m")))).toBe("1100m");
    expect(formatQuantity(addQuantity(read("512Mi"), read("512Mi")))).toBe("1Gi");
    expect(formatQuantity(addQuantity(read("0"), read("1Ki")))).toBe("1Ki");
    expect(formatQuantity(addQuantity(countQuantity(0), read("1Ki")))).toBe("1Ki");
    expect(formatQuantity(addQuantity(read("100Mi"), read("0.5Gi")))).toBe("612Mi");
    expect(formatQuantity(addQuantity(roundUp(read("1.5Gi"), 0), roundUp(read("1000.5"), 0)))).toBe("1610613737");
    expect(readQuantity("1 core")).toBeUndefined();
  });
});
