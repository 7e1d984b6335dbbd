// The comparison table: one row per measured figure, kapi against kube-apiserver, the bare node:https
// ceiling where a row has one, and issue 22's target for the row with whether this run meets it.

export type Figures = Readonly<Record<string, number>>;

export type Target =
  | { readonly ratioAtLeast: number }
  | { readonly ratioAtMost: number }
  | { readonly kapiAtMost: number; readonly unit: string };

export interface RowSpec {
  readonly id: string;
  readonly label: string;
  readonly unit: "/s" | "ms" | "MB" | "cores";
  /** The ceiling figure this row is read against, by id. */
  readonly ceiling?: string;
  readonly target?: Target;
}

export const rowSpecs: readonly RowSpec[] = [
  {
    id: "create-first",
    label: "create ConfigMap, conc 32, first 3,000 after ready",
    unit: "/s",
    ceiling: "post-32",
    target: { ratioAtLeast: 1.5 },
  },
  {
    id: "create-again",
    label: "create ConfigMap, conc 32, 3,000 again",
    unit: "/s",
    ceiling: "post-32",
    target: { ratioAtLeast: 2 },
  },
  { id: "get", label: "GET one ConfigMap, conc 64", unit: "/s", ceiling: "get-64", target: { ratioAtLeast: 3 } },
  { id: "get-p50", label: "GET p50", unit: "ms", ceiling: "get-64-p50" },
  { id: "get-p99", label: "GET p99", unit: "ms", ceiling: "get-64-p99", target: { ratioAtMost: 1 } },
  { id: "update", label: "update ConfigMap, conc 32", unit: "/s", ceiling: "post-32", target: { ratioAtLeast: 2 } },
  { id: "update-p99", label: "update p99", unit: "ms", ceiling: "post-32-p99", target: { ratioAtMost: 1 } },
  { id: "list-3k-p50", label: "LIST 3k ConfigMaps p50", unit: "ms", target: { ratioAtMost: 0.5 } },
  { id: "watch-p50", label: "watch: 300 watchers, 50 writes/s, p50", unit: "ms" },
  { id: "watch-p99", label: "watch p99", unit: "ms", target: { ratioAtMost: 1 } },
  {
    id: "create-pod",
    label: "create Pod (2 KiB), conc 32",
    unit: "/s",
    ceiling: "post-32",
    target: { ratioAtLeast: 2 },
  },
  { id: "list-pods-p50", label: "LIST 10k Pods p50", unit: "ms", target: { ratioAtMost: 0.3 } },
  { id: "list-pods-paged-p50", label: "LIST 10k Pods paged by 500, p50", unit: "ms", target: { ratioAtMost: 0.3 } },
  { id: "rss", label: "RSS after the run", unit: "MB", target: { ratioAtMost: 0.5 } },
  { id: "cores", label: "cores used (CPU s / wall s, whole run)", unit: "cores" },
  {
    id: "event-loop-max",
    label: "kapi event-loop delay max (any workload)",
    unit: "ms",
    target: { kapiAtMost: 20, unit: "ms" },
  },
];

/** A figure as the table prints it: rates and sizes whole with thousands separators, times to 3 digits. */
export function formatFigure(value: number | undefined, unit: RowSpec["unit"]): string {
  if (value === undefined || Number.isNaN(value)) return "–";
  if (unit === "cores") return value.toFixed(2);
  if (unit === "ms") {
    const digits = value < 10 ? 2 : value < 100 ? 1 : 0;
    return `${value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })} ms`;
  }
  return `${Math.round(value).toLocaleString("en-US")} ${unit}`;
}

/** kapi / kube-apiserver, undefined when either side is missing or kube's figure is zero. */
export function ratio(kapi: number | undefined, kube: number | undefined): number | undefined {
  if (kapi === undefined || kube === undefined || Number.isNaN(kapi) || Number.isNaN(kube) || kube === 0) {
    return undefined;
  }
  return kapi / kube;
}

export function describeTarget(target: Target | undefined): string {
  if (target === undefined) return "";
  if ("ratioAtLeast" in target) return `≥ ${target.ratioAtLeast}×`;
  if ("ratioAtMost" in target) return `≤ ${target.ratioAtMost}×`;
  return `≤ ${target.kapiAtMost} ${target.unit}`;
}

/** Whether the row meets its target: undefined when it has none or a figure it needs is missing. */
export function targetMet(target: Target | undefined, kapi: number | undefined, r: number | undefined) {
  if (target === undefined) return undefined;
  if ("kapiAtMost" in target) return kapi === undefined || Number.isNaN(kapi) ? undefined : kapi <= target.kapiAtMost;
  if (r === undefined) return undefined;
  return "ratioAtLeast" in target ? r >= target.ratioAtLeast : r <= target.ratioAtMost;
}

export interface ComparedRow {
  id: string;
  label: string;
  unit: RowSpec["unit"];
  kube?: number;
  kapi?: number;
  ratio?: number;
  ceiling?: number;
  target: string;
  met?: boolean;
}

/** Rows of the figures; `pods` renames the LIST rows when the run listed other than 10,000 Pods. */
export function compareRows(kube: Figures | undefined, kapi: Figures, ceiling: Figures, pods = 10_000): ComparedRow[] {
  const podsLabel = pods === 10_000 ? "10k" : pods.toLocaleString("en-US");
  return rowSpecs.map((spec) => {
    const k = kube?.[spec.id];
    const a = kapi[spec.id];
    const r = ratio(a, k);
    const c = spec.ceiling === undefined ? undefined : ceiling[spec.ceiling];
    const met = targetMet(spec.target, a, r);
    return {
      id: spec.id,
      label: spec.label.replace("10k Pods", `${podsLabel} Pods`),
      unit: spec.unit,
      ...(k === undefined ? {} : { kube: k }),
      ...(a === undefined ? {} : { kapi: a }),
      ...(r === undefined ? {} : { ratio: r }),
      ...(c === undefined ? {} : { ceiling: c }),
      target: describeTarget(spec.target),
      ...(met === undefined ? {} : { met }),
    };
  });
}

/** The rows as a Markdown table, ready for docs/performance.md. */
export function formatTable(rows: readonly ComparedRow[]): string {
  const lines = [
    "| workload | kube-apiserver | kapi | kapi / kube | ceiling | target | met |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    const met = row.met === undefined ? "" : row.met ? "yes" : "**no**";
    lines.push(
      `| ${row.label} | ${formatFigure(row.kube, row.unit)} | ${formatFigure(row.kapi, row.unit)} | ${
        row.ratio === undefined ? "–" : row.ratio.toFixed(2)
      } | ${row.ceiling === undefined ? "" : formatFigure(row.ceiling, row.unit)} | ${row.target} | ${met} |`,
    );
  }
  return lines.join("\n");
}

export interface WorkloadDetail {
  workload: string;
  kubeCores?: number;
  kapiCores?: number;
  kubeCpuMsPerRequest?: number;
  kapiCpuMsPerRequest?: number;
  kapiEventLoopMaxMs?: number;
  kubeErrors?: number;
  kapiErrors?: number;
}

/**
 * Per workload: the cores each server kept busy, its CPU time per request (steadier than rates on a loaded
 * machine) and kapi's event-loop delay max.
 */
export function formatDetails(details: readonly WorkloadDetail[]): string {
  const lines = [
    "| workload | cores kube / kapi | CPU ms per request kube / kapi | kapi / kube CPU | kapi event-loop delay max | failed kube / kapi |",
    "|---|---|---|---|---|---|",
  ];
  for (const d of details) {
    const cpuRatio = ratio(d.kapiCpuMsPerRequest, d.kubeCpuMsPerRequest);
    lines.push(
      `| ${d.workload} | ${formatFigure(d.kubeCores, "cores")} / ${formatFigure(d.kapiCores, "cores")} | ${formatCpu(
        d.kubeCpuMsPerRequest,
      )} / ${formatCpu(d.kapiCpuMsPerRequest)} | ${cpuRatio === undefined ? "–" : cpuRatio.toFixed(2)} | ${formatFigure(
        d.kapiEventLoopMaxMs,
        "ms",
      )} | ${d.kubeErrors ?? "–"} / ${d.kapiErrors ?? "–"} |`,
    );
  }
  return lines.join("\n");
}

/** CPU milliseconds to three significant digits, whole with separators from 100 up. */
function formatCpu(ms: number | undefined): string {
  if (ms === undefined || Number.isNaN(ms)) return "–";
  return ms >= 100 ? Math.round(ms).toLocaleString("en-US") : ms.toPrecision(3);
}
