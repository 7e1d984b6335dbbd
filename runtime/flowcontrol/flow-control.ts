// API Priority and Fairness as kube-apiserver's configuration controller keeps it: the FlowSchemas sorted for
// matching, a priority level (with its QueueSet) per PriorityLevelConfiguration, their concurrency limits from
// the server's (`--max-requests-inflight` + `--max-mutating-requests-inflight`), and what each request was
// classified as. The mandatory `exempt` and `catch-all` objects are imagined from their bootstrap versions
// while they do not exist, as kube does, so that every request is always classified.
import type {
  FlowSchema,
  FlowSchemaCondition,
  PriorityLevelConfiguration,
} from "../../generated/flowcontrol.apiserver.k8s.io/v1/types.js";
import type { UserInfo } from "../access/user-info.js";
import { mandatoryFlowControl } from "../controllers/flow-control-defaults.js";
import type { MetricRegistry } from "../metrics/metric-registry.js";
import type { RequestInfo } from "../routing/request-info.js";
import { type FlowControlMetrics, flowControlMetrics } from "./flow-control-metrics.js";
import { flowDistinguisher, flowSchemaMatches } from "./flow-schema-match.js";
import { type Outcome, QueueSet, type QueueSetConfig, type Waiting } from "./queue-set.js";
import { DroppedRequests } from "./retry-after.js";
import { flowHash } from "./shuffle-sharding.js";

/** The work estimator's cap on a level's seats per request: 15% of its nominal limit (kube's). */
const maxSeatsPercent = 0.15;

export interface PriorityLevel {
  readonly name: string;
  readonly uid: string;
  readonly exempt: boolean;
  readonly config: PriorityLevelConfiguration;
  /** Seats its shares give it of the server's limit. */
  nominal: number;
  /** The nominal limit less what it may lend. */
  lower: number;
  /** The nominal limit plus what it may borrow. */
  upper: number;
  /** The limit its queues dispatch against. */
  current: number;
  /** The most seats one request may take here; 0 when the level does not queue (the estimator's caps apply). */
  maxSeats: number;
  readonly queues: QueueSet;
}

export interface Classification {
  flowSchema: { name: string; uid: string };
  level: PriorityLevel;
  distinguisher: string;
}

export interface DanglingCondition {
  /** The FlowSchema whose `Dangling` condition is not what it should be. */
  name: string;
  condition: FlowSchemaCondition;
}

interface FlowCounts {
  waiting: number;
  waitingSeats: number;
  executing: number;
  executingSeats: number;
  /** The (level, schema) pair's metric children, bound once rather than labelled per request. */
  metrics: FlowMetrics | undefined;
}

type Observer = { observe(value: number): void };

interface FlowMetrics {
  estimatedSeats: Observer;
  dispatched: { inc(): void };
  waitExecuted: Observer;
  queueLength: Observer;
  executionRegular: Observer;
  executionWatch: Observer;
}

function bindFlowMetrics(metrics: FlowControlMetrics, level: string, schema: string): FlowMetrics {
  const labels = { priority_level: level, flow_schema: schema };
  return {
    estimatedSeats: metrics.estimatedSeats.labels(labels),
    dispatched: metrics.dispatched.labels(labels),
    waitExecuted: metrics.waitDuration.labels({ ...labels, execute: "true" }),
    queueLength: metrics.queueLength.labels(labels),
    executionRegular: metrics.executionSeconds.labels({ ...labels, type: "regular" }),
    executionWatch: metrics.executionSeconds.labels({ ...labels, type: "watch" }),
  };
}

type Limits = Pick<PriorityLevel, "nominal" | "lower" | "upper" | "current" | "maxSeats">;

const named = (name: string) => (object: { metadata?: unknown }) =>
  (object.metadata as { name?: string } | undefined)?.name === name;
const bootstrapLevel = (name: string) =>
  mandatoryFlowControl.priorityLevelConfigurations.find(named(name)) as PriorityLevelConfiguration;
const bootstrapSchema = (name: string) => mandatoryFlowControl.flowSchemas.find(named(name)) as FlowSchema;

function queuingOf(config: PriorityLevelConfiguration): QueueSetConfig {
  const spec = config.spec;
  if (spec?.type === "Exempt")
    return { concurrencyLimit: 0, queues: 0, handSize: 0, queueLengthLimit: 0, exempt: true };
  const queuing = spec?.limited?.limitResponse?.type === "Queue" ? spec.limited.limitResponse.queuing : undefined;
  return {
    concurrencyLimit: 0,
    queues: queuing?.queues ?? 0,
    handSize: queuing?.handSize ?? 0,
    queueLengthLimit: queuing?.queueLengthLimit ?? 0,
    exempt: false,
  };
}

function sharesOf(config: PriorityLevelConfiguration): number {
  const spec = config.spec;
  if (spec?.limited !== undefined) return spec.limited.nominalConcurrencyShares ?? 0;
  return spec?.exempt?.nominalConcurrencyShares ?? 0;
}

function compareSchemas(a: FlowSchema, b: FlowSchema): number {
  const byPrecedence = (a.spec?.matchingPrecedence ?? 1000) - (b.spec?.matchingPrecedence ?? 1000);
  if (byPrecedence !== 0) return byPrecedence;
  const [an, bn] = [a.metadata?.name ?? "", b.metadata?.name ?? ""];
  return an < bn ? -1 : an > bn ? 1 : 0;
}

function danglingCondition(schema: FlowSchema, levelName: string, exists: boolean): FlowSchemaCondition | undefined {
  const wanted = exists
    ? {
        status: "False",
        reason: "Found",
        message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(levelName)} and it exists`,
      }
    : {
        status: "True",
        reason: "NotFound",
        message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(levelName)} but there is no such object`,
      };
  const current = schema.status?.conditions?.find((c) => c.type === "Dangling");
  if (current?.status === wanted.status && current.reason === wanted.reason && current.message === wanted.message) {
    return undefined;
  }
  return { type: "Dangling", ...wanted, lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, "Z") };
}

export class FlowControl {
  private levels = new Map<string, PriorityLevel>();
  private schemas: FlowSchema[] = [];
  private readonly flows = new Map<string, FlowCounts>();
  readonly dropped = new DroppedRequests();
  private readonly metrics: FlowControlMetrics | undefined;

  /** `serverConcurrencyLimit`: `--max-requests-inflight` + `--max-mutating-requests-inflight`. */
  constructor(
    readonly serverConcurrencyLimit: number,
    registry?: MetricRegistry,
  ) {
    this.metrics =
      registry === undefined
        ? undefined
        : flowControlMetrics(registry, {
            levels: () => this.levels.values(),
            flows: () => this.flowEntries(),
          });
    this.configure([], []);
  }

  private *flowEntries() {
    for (const [key, counts] of this.flows) {
      const [priorityLevel = "", flowSchema = ""] = key.split("\0");
      const { waiting, waitingSeats, executing, executingSeats } = counts;
      yield { priorityLevel, flowSchema, waiting, waitingSeats, executing, executingSeats };
    }
  }

  /** The priority levels in use, by name. */
  priorityLevels(): ReadonlyMap<string, PriorityLevel> {
    return this.levels;
  }

  /** The FlowSchemas in matching order. */
  flowSchemas(): readonly FlowSchema[] {
    return this.schemas;
  }

  /**
   * Takes in the configuration objects as they are now and returns the `Dangling` conditions to write:
   * a FlowSchema naming a priority level that does not exist is ignored (and said to dangle).
   */
  configure(configs: readonly PriorityLevelConfiguration[], schemas: readonly FlowSchema[]): DanglingCondition[] {
    const wanted = new Map(configs.map((config) => [config.metadata?.name ?? "", config]));
    for (const name of ["exempt", "catch-all"]) if (!wanted.has(name)) wanted.set(name, bootstrapLevel(name));
    const shareSum = [...wanted.values()].reduce((sum, config) => sum + sharesOf(config), 0);
    const levels = new Map<string, PriorityLevel>();
    for (const [name, config] of wanted) {
      const queuing = queuingOf(config);
      const limits = this.limitsOf(config, shareSum);
      queuing.concurrencyLimit = limits.current;
      const previous = this.levels.get(name);
      const exempt = queuing.exempt;
      if (previous !== undefined && previous.exempt === exempt) {
        previous.queues.reconfigure(queuing);
        levels.set(name, Object.assign(previous, { config, uid: config.metadata?.uid ?? "", ...limits }));
      } else {
        const level = {
          name,
          uid: config.metadata?.uid ?? "",
          exempt,
          config,
          ...limits,
          queues: new QueueSet(queuing),
        };
        levels.set(name, level);
      }
    }
    this.levels = levels;
    const updates: DanglingCondition[] = [];
    const usable: FlowSchema[] = [];
    for (const schema of schemas) {
      const levelName = schema.spec?.priorityLevelConfiguration.name ?? "";
      // Only objects that exist dangle or not; the imagined ones are not API objects.
      const exists = configs.some((config) => config.metadata?.name === levelName);
      const condition = danglingCondition(schema, levelName, exists);
      if (condition !== undefined) updates.push({ name: schema.metadata?.name ?? "", condition });
      if (levels.has(levelName)) usable.push(schema);
    }
    usable.sort(compareSchemas);
    if (!usable.some((s) => s.metadata?.name === "exempt")) usable.unshift(bootstrapSchema("exempt"));
    if (!usable.some((s) => s.metadata?.name === "catch-all")) usable.push(bootstrapSchema("catch-all"));
    this.schemas = usable;
    return updates;
  }

  /**
   * kube's limits: nominal = ⌈server limit × shares / all shares⌉; lendable = round(nominal × lendablePercent%);
   * borrowable = round(nominal × borrowingLimitPercent%), or the whole server limit when unset. The current
   * limit is where kube starts a level (nominal − lendable/2); kube then moves it every 10 s by demand.
   */
  private limitsOf(config: PriorityLevelConfiguration, shareSum: number): Limits {
    const shares = sharesOf(config);
    const nominal = shareSum === 0 ? 0 : Math.ceil((this.serverConcurrencyLimit * shares) / shareSum);
    const spec = config.spec;
    const lendablePercent = spec?.limited?.lendablePercent ?? spec?.exempt?.lendablePercent;
    const borrowingPercent = spec?.limited?.borrowingLimitPercent;
    const lendable = lendablePercent === undefined ? 0 : Math.round((nominal * lendablePercent) / 100);
    const borrowable =
      borrowingPercent === undefined ? this.serverConcurrencyLimit : Math.round((nominal * borrowingPercent) / 100);
    const handSize = spec?.limited?.limitResponse?.queuing?.handSize;
    const maxSeats =
      handSize === undefined || spec?.limited?.limitResponse?.type !== "Queue"
        ? 0
        : Math.max(1, Math.min(Math.ceil(nominal * maxSeatsPercent), Math.floor(nominal / handSize)));
    return {
      nominal,
      lower: nominal - lendable,
      upper: nominal + borrowable,
      current: nominal - Math.floor(lendable / 2),
      maxSeats,
    };
  }

  /** The first FlowSchema (in matching order) whose rules match, else the catch-all one. */
  classify(user: UserInfo, info: RequestInfo): Classification {
    const schema =
      this.schemas.find((s) => flowSchemaMatches(s, user, info)) ??
      (this.schemas.find((s) => s.metadata?.name === "catch-all") as FlowSchema);
    const level = this.levels.get(schema.spec?.priorityLevelConfiguration.name ?? "") as PriorityLevel;
    return {
      flowSchema: { name: schema.metadata?.name ?? "", uid: schema.metadata?.uid ?? "" },
      level,
      distinguisher: flowDistinguisher(schema, user, info),
    };
  }

  /** Waits for seats at the request's level; counts what waits, runs and is rejected for the metrics. */
  async admit(
    classification: Classification,
    seats: number,
    watch: boolean,
    limitMs: number,
    watchCancel: Waiting["watchCancel"],
  ): Promise<Outcome> {
    const { level, flowSchema } = classification;
    const counts = this.countsOf(level.name, flowSchema.name);
    const bound = counts.metrics;
    bound?.estimatedSeats.observe(seats);
    counts.waiting++;
    counts.waitingSeats += seats;
    const outcome = await level.queues.acquire(seats, {
      flowHash: () => flowHash(flowSchema.name, classification.distinguisher),
      limitMs,
      watchCancel,
    });
    counts.waiting--;
    counts.waitingSeats -= seats;
    if ("rejected" in outcome) {
      const labels = { priority_level: level.name, flow_schema: flowSchema.name };
      this.metrics?.rejected.inc({ ...labels, reason: outcome.rejected });
      this.metrics?.waitDuration.observe({ ...labels, execute: "false" }, outcome.waitedMs / 1000);
      return outcome;
    }
    const { grant } = outcome;
    bound?.dispatched.inc();
    bound?.waitExecuted.observe(grant.waitedMs / 1000);
    if (grant.queueLengthAfterEnqueue !== undefined) bound?.queueLength.observe(grant.queueLengthAfterEnqueue);
    counts.executing++;
    counts.executingSeats += seats;
    const startedAt = performance.now();
    let released = false;
    return {
      grant: {
        ...grant,
        release: () => {
          if (released) return;
          released = true;
          counts.executing--;
          counts.executingSeats -= seats;
          (watch ? bound?.executionWatch : bound?.executionRegular)?.observe((performance.now() - startedAt) / 1000);
          grant.release();
        },
      },
    };
  }

  /** Counts of a (level, schema) pair, kept once seen: kube's gauges stay at 0 rather than vanish. */
  private countsOf(level: string, schema: string): FlowCounts {
    const key = `${level}\0${schema}`;
    let counts = this.flows.get(key);
    if (counts === undefined) {
      const metrics = this.metrics === undefined ? undefined : bindFlowMetrics(this.metrics, level, schema);
      counts = { waiting: 0, waitingSeats: 0, executing: 0, executingSeats: 0, metrics };
      this.flows.set(key, counts);
    }
    return counts;
  }
}
