// One server's metric families, on a prom-client Registry of its own (tests run many servers in one process,
// so prom-client's global registry is never used). Families follow kube's component-base/metrics rules: the
// help text carries the stability level and, once deprecated, the version since; a family deprecated long
// enough for its level is hidden unless `--show-hidden-metrics-for-version` names the previous minor release.
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { kubeMinorVersion } from "./kube-version.js";

export type StabilityLevel = "ALPHA" | "BETA" | "STABLE" | "INTERNAL";

export interface MetricOptions<L extends string = string> {
  name: string;
  help: string;
  labelNames?: readonly L[];
  stabilityLevel: StabilityLevel;
  /** `major.minor.patch` of the release that deprecated the family. */
  deprecatedVersion?: string;
}

export interface HistogramOptions<L extends string = string> extends MetricOptions<L> {
  buckets?: readonly number[];
}

export interface GaugeOptions<L extends string = string> extends MetricOptions<L> {
  /** Called at each scrape to set the gauge's values (as prom-client's `collect`). */
  collect?: (this: Gauge<L>) => void | Promise<void>;
}

interface Version {
  major: number;
  minor: number;
}

/** How many minor releases a deprecated family stays shown, by stability level (kube's deprecation policy). */
function shownMinorReleases(level: StabilityLevel): number {
  if (level === "STABLE") return 3;
  if (level === "BETA") return 1;
  return 0;
}

function parseVersion(text: string): Version {
  const match = /^v?(\d+)\.(\d+)(?:\.\d+)?/.exec(text);
  if (match === null) throw new Error(`metrics: invalid deprecated version ${JSON.stringify(text)}`);
  return { major: Number(match[1]), minor: Number(match[2]) };
}

function isDeprecated(current: Version, deprecated: Version): boolean {
  if (current.major !== deprecated.major) return current.major > deprecated.major;
  return current.minor >= deprecated.minor;
}

// A released version (never an `alpha.0` pre-release) hides a family in the minor release its period ends in.
function isHidden(level: StabilityLevel, current: Version, deprecated: Version): boolean {
  if (deprecated.major !== current.major) return deprecated.major < current.major;
  return deprecated.minor + shownMinorReleases(level) <= current.minor;
}

/**
 * Checks `--show-hidden-metrics-for-version`: empty, or the minor release before the current one, with
 * kube-apiserver's message when not.
 */
export function validateShowHiddenMetricsForVersion(
  value: string,
  current: Version = kubeMinorVersion,
): string | undefined {
  if (value === "") return undefined;
  const allowed = `${current.major}.${current.minor - 1}`;
  if (value === allowed) return undefined;
  return `metrics.showHiddenMetricsForVersion: Invalid value: ${JSON.stringify(value)}: must be omitted or have the value '${allowed}'; only the previous minor version is allowed`;
}

export interface MetricRegistryOptions {
  /** `--show-hidden-metrics-for-version`; validated (an invalid value throws). */
  showHiddenMetricsForVersion?: string;
  /** The release the server behaves as; default kube's current one. */
  currentVersion?: Version;
  /**
   * Whether the registry counts its own families (registered_metrics_total, hidden_metrics_total,
   * disabled_metrics_total), as kube's main registry does; default true.
   */
  meta?: boolean;
}

export class MetricRegistry {
  readonly registry = new Registry();
  readonly #current: Version;
  readonly #showHidden: boolean;
  readonly #registered: Counter<"deprecated_version" | "stability_level"> | undefined;
  readonly #hidden: Counter | undefined;

  constructor(options: MetricRegistryOptions = {}) {
    this.#current = options.currentVersion ?? kubeMinorVersion;
    const show = options.showHiddenMetricsForVersion ?? "";
    const invalid = validateShowHiddenMetricsForVersion(show, this.#current);
    if (invalid !== undefined) throw new Error(invalid);
    this.#showHidden = show !== "";
    if (options.meta === false) return;
    this.#registered = new Counter({
      name: "registered_metrics_total",
      help: "[BETA] The count of registered metrics broken by stability level and deprecation version.",
      labelNames: ["deprecated_version", "stability_level"],
      registers: [this.registry],
    });
    this.#registered?.inc({ deprecated_version: "", stability_level: "BETA" }, 3);
    new Counter({
      name: "disabled_metrics_total",
      help: "[BETA] The count of disabled metrics.",
      registers: [this.registry],
    });
    this.#hidden = new Counter({
      name: "hidden_metrics_total",
      help: "[BETA] The count of hidden metrics.",
      registers: [this.registry],
    });
  }

  /** Whether the registry shows its hidden families (`--show-hidden-metrics-for-version`). */
  get showsHidden(): boolean {
    return this.#showHidden;
  }

  /** The help prom-client prints, and the registries the family joins: none when it is hidden. */
  #describe(opts: MetricOptions): { help: string; registers: Registry[] } {
    let help = opts.help;
    let hidden = false;
    if (opts.deprecatedVersion !== undefined) {
      const deprecated = parseVersion(opts.deprecatedVersion);
      if (isDeprecated(this.#current, deprecated)) help = `(Deprecated since ${opts.deprecatedVersion}) ${help}`;
      hidden = isHidden(opts.stabilityLevel, this.#current, deprecated) && !this.#showHidden;
    }
    if (hidden) {
      this.#hidden?.inc();
      return { help, registers: [] };
    }
    this.#registered?.inc({ deprecated_version: opts.deprecatedVersion ?? "", stability_level: opts.stabilityLevel });
    return { help: `[${opts.stabilityLevel}] ${help}`, registers: [this.registry] };
  }

  /** A counter; a hidden one counts but is never exported. */
  counter<L extends string = string>(opts: MetricOptions<L>): Counter<L> {
    return new Counter<L>({
      name: opts.name,
      labelNames: opts.labelNames ?? [],
      ...this.#describe(opts),
    });
  }

  gauge<L extends string = string>(opts: GaugeOptions<L>): Gauge<L> {
    return new Gauge<L>({
      name: opts.name,
      labelNames: opts.labelNames ?? [],
      ...(opts.collect === undefined ? {} : { collect: opts.collect }),
      ...this.#describe(opts),
    });
  }

  histogram<L extends string = string>(opts: HistogramOptions<L>): Histogram<L> {
    return new Histogram<L>({
      name: opts.name,
      labelNames: opts.labelNames ?? [],
      ...(opts.buckets === undefined ? {} : { buckets: [...opts.buckets] }),
      ...this.#describe(opts),
    });
  }

  /** Whether a family of that name is exported. */
  has(name: string): boolean {
    return this.registry.getSingleMetric(name) !== undefined;
  }

  /**
   * The text exposition (format 0.0.4), families sorted by name and those with no sample left out, as
   * kube's Go registry gathers them.
   */
  async text(): Promise<string> {
    const text = await this.registry.metrics();
    const families = text.split(/\n(?=# HELP )/);
    const kept: string[] = [];
    for (const family of families) {
      const block = family.endsWith("\n") ? family : `${family}\n`;
      if (block.split("\n").some((line) => line !== "" && !line.startsWith("#"))) kept.push(block);
    }
    kept.sort((a, b) => (familyName(a) < familyName(b) ? -1 : 1));
    return kept.join("");
  }
}

function familyName(block: string): string {
  const end = block.indexOf(" ", 7);
  return block.slice(7, end);
}
