// bench/compare.ts's command line.
import { parseArgs } from "node:util";
import { type WorkloadName, workloadNames } from "./workloads.js";

export interface CompareOptions {
  seconds: number;
  only: ReadonlySet<WorkloadName>;
  kapiArgs: string[];
  json?: string;
  clientThreads: number;
  watchers: number;
  pods: number;
  build: boolean;
  kube: boolean;
}

export const usage = `Usage: npx tsx bench/compare.ts [--seconds N] [--only workload,...] [--kapi-arg=ARG ...]
       [--json FILE] [--client-threads N] [--watchers N] [--pods N] [--no-build] [--no-kube]
Workloads: ${workloadNames.join(", ")}`;

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got "${value}"`);
  return n;
}

export function parseCompareOptions(argv: readonly string[]): CompareOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      seconds: { type: "string" },
      only: { type: "string", multiple: true },
      "kapi-arg": { type: "string", multiple: true },
      json: { type: "string" },
      "client-threads": { type: "string" },
      watchers: { type: "string" },
      pods: { type: "string" },
      "no-build": { type: "boolean" },
      "no-kube": { type: "boolean" },
    },
    strict: true,
    allowPositionals: false,
  });
  const only = (values.only ?? []).flatMap((v) => v.split(",")).filter((v) => v !== "");
  for (const name of only) {
    if (!(workloadNames as readonly string[]).includes(name)) {
      throw new Error(`unknown workload "${name}"; workloads: ${workloadNames.join(", ")}`);
    }
  }
  const options: CompareOptions = {
    seconds: positive("seconds", values.seconds, 10),
    only: new Set((only.length === 0 ? workloadNames : only) as WorkloadName[]),
    kapiArgs: values["kapi-arg"] ?? [],
    clientThreads: Math.round(positive("client-threads", values["client-threads"], 1)),
    watchers: Math.round(positive("watchers", values.watchers, 300)),
    pods: Math.round(positive("pods", values.pods, 10_000)),
    build: values["no-build"] !== true,
    kube: values["no-kube"] !== true,
  };
  if (values.json !== undefined) options.json = values.json;
  return options;
}
