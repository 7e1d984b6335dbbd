import { describe, expect, it } from "vitest";
import {
  compareRows,
  formatDetails,
  formatFigure,
  formatTable,
  ratio,
  rowSpecs,
  targetMet,
} from "../../../bench/compare/report.js";

describe("formatFigure", () => {
  it("prints rates and sizes whole with separators, times to three digits, cores to two decimals", () => {
    expect(formatFigure(1026.4, "/s")).toBe("1,026 /s");
    expect(formatFigure(907.2, "MB")).toBe("907 MB");
    expect(formatFigure(1.634, "ms")).toBe("1.63 ms");
    expect(formatFigure(56.25, "ms")).toBe("56.3 ms");
    expect(formatFigure(1437.4, "ms")).toBe("1,437 ms");
    expect(formatFigure(1.234, "cores")).toBe("1.23");
    expect(formatFigure(undefined, "ms")).toBe("–");
    expect(formatFigure(Number.NaN, "/s")).toBe("–");
  });
});

describe("ratio and targets", () => {
  it("divides kapi by kube, and has none when a side is missing or kube is zero", () => {
    expect(ratio(3, 2)).toBe(1.5);
    expect(ratio(undefined, 2)).toBeUndefined();
    expect(ratio(2, undefined)).toBeUndefined();
    expect(ratio(2, 0)).toBeUndefined();
  });

  it("judges at-least, at-most and absolute targets", () => {
    expect(targetMet({ ratioAtLeast: 2 }, 10, 2)).toBe(true);
    expect(targetMet({ ratioAtLeast: 2 }, 10, 1.99)).toBe(false);
    expect(targetMet({ ratioAtMost: 0.5 }, 10, 0.5)).toBe(true);
    expect(targetMet({ ratioAtMost: 0.5 }, 10, 0.51)).toBe(false);
    expect(targetMet({ kapiAtMost: 20, unit: "ms" }, 19, undefined)).toBe(true);
    expect(targetMet({ kapiAtMost: 20, unit: "ms" }, 21, undefined)).toBe(false);
    expect(targetMet({ ratioAtLeast: 2 }, 10, undefined)).toBeUndefined();
    expect(targetMet(undefined, 10, 1)).toBeUndefined();
  });
});

describe("the comparison table", () => {
  const kube = { get: 2000, "get-p99": 100, rss: 900 };
  const kapi = { get: 7000, "get-p99": 120, rss: 400, "event-loop-max": 25 };
  const ceiling = { "get-64": 20_000, "get-64-p99": 5 };

  it("has a row per figure in the issue's order, with ratio, ceiling, target and verdict", () => {
    const rows = compareRows(kube, kapi, ceiling);
    expect(rows.map((r) => r.id)).toEqual(rowSpecs.map((s) => s.id));
    const get = rows.find((r) => r.id === "get");
    expect(get).toMatchObject({ kube: 2000, kapi: 7000, ratio: 3.5, ceiling: 20_000, target: "≥ 3×", met: true });
    expect(rows.find((r) => r.id === "get-p99")).toMatchObject({ ratio: 1.2, met: false });
    expect(rows.find((r) => r.id === "event-loop-max")).toMatchObject({ kapi: 25, target: "≤ 20 ms", met: false });
    expect(rows.find((r) => r.id === "create-first")).toEqual({
      id: "create-first",
      label: "create ConfigMap, conc 32, first 3,000 after ready",
      unit: "/s",
      target: "≥ 1.5×",
    });
  });

  it("prints Markdown, with dashes for figures not measured and no ratio without kube", () => {
    const table = formatTable(compareRows(undefined, kapi, ceiling)).split("\n");
    expect(table[0]).toBe("| workload | kube-apiserver | kapi | kapi / kube | ceiling | target | met |");
    expect(table).toContain("| GET one ConfigMap, conc 64 | – | 7,000 /s | – | 20,000 /s | ≥ 3× |  |");
    expect(table).toContain("| kapi event-loop delay max (any workload) | – | 25.0 ms | – |  | ≤ 20 ms | **no** |");
    expect(table).toHaveLength(rowSpecs.length + 2);
  });

  it("names the Pod count of the LIST rows when it is not the issue's 10,000", () => {
    const labels = compareRows(undefined, kapi, ceiling, 2000).map((r) => r.label);
    expect(labels).toContain("LIST 2,000 Pods p50");
    expect(labels).toContain("LIST 2,000 Pods paged by 500, p50");
  });

  it("prints the per-workload details with the CPU ratio", () => {
    const lines = formatDetails([
      {
        workload: "get",
        kubeCores: 1.5,
        kapiCores: 0.9,
        kubeCpuMsPerRequest: 0.6,
        kapiCpuMsPerRequest: 0.15,
        kapiEventLoopMaxMs: 12.5,
        kubeErrors: 0,
        kapiErrors: 1,
      },
      { workload: "watch", kapiCores: 0.2, kapiCpuMsPerRequest: 2 },
      { workload: "list-pods", kubeCpuMsPerRequest: 1046.67, kapiCpuMsPerRequest: 306.67 },
    ]).split("\n");
    expect(lines[2]).toBe("| get | 1.50 / 0.90 | 0.600 / 0.150 | 0.25 | 12.5 ms | 0 / 1 |");
    expect(lines[3]).toBe("| watch | – / 0.20 | – / 2.00 | – | – | – / – |");
    expect(lines[4]).toBe("| list-pods | – / – | 1,047 / 307 | 0.29 | – | – / – |");
  });
});
