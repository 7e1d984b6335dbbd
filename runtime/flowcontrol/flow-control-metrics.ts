// API Priority and Fairness' metric families, with kube-apiserver's names, labels, buckets and stability
// levels (k8s.io/apiserver/pkg/util/flowcontrol/metrics). Gauges are read from the levels at each scrape.
import type { Counter, Histogram } from "prom-client";
import type { MetricRegistry } from "../metrics/metric-registry.js";

const durationBuckets = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];
const queueLengthBuckets = [0, 10, 25, 50, 100, 250, 500, 1000];

/** What the gauges read: per priority level its limits, and per (level, schema) what waits and runs. */
export interface FlowControlGauges {
  levels(): Iterable<{ name: string; nominal: number; lower: number; upper: number; current: number }>;
  flows(): Iterable<{
    priorityLevel: string;
    flowSchema: string;
    waiting: number;
    waitingSeats: number;
    executing: number;
    executingSeats: number;
  }>;
}

export interface FlowControlMetrics {
  rejected: Counter<"priority_level" | "flow_schema" | "reason">;
  dispatched: Counter<"priority_level" | "flow_schema">;
  waitDuration: Histogram<"priority_level" | "flow_schema" | "execute">;
  executionSeconds: Histogram<"priority_level" | "flow_schema" | "type">;
  queueLength: Histogram<"priority_level" | "flow_schema">;
  estimatedSeats: Histogram<"priority_level" | "flow_schema">;
}

export function flowControlMetrics(registry: MetricRegistry, gauges: FlowControlGauges): FlowControlMetrics {
  const levelGauge = (
    name: string,
    help: string,
    stabilityLevel: "ALPHA" | "BETA",
    field: "nominal" | "lower" | "upper" | "current",
  ) =>
    registry.gauge({
      name: `apiserver_flowcontrol_${name}`,
      help,
      labelNames: ["priority_level"],
      stabilityLevel,
      collect() {
        this.reset();
        for (const level of gauges.levels()) this.set({ priority_level: level.name }, level[field]);
      },
    });
  levelGauge(
    "nominal_limit_seats",
    "Nominal number of execution seats configured for each priority level",
    "BETA",
    "nominal",
  );
  levelGauge(
    "lower_limit_seats",
    "Configured lower bound on number of execution seats available to each priority level",
    "ALPHA",
    "lower",
  );
  levelGauge(
    "upper_limit_seats",
    "Configured upper bound on number of execution seats available to each priority level",
    "ALPHA",
    "upper",
  );
  levelGauge(
    "current_limit_seats",
    "current derived number of execution seats available to each priority level",
    "ALPHA",
    "current",
  );
  const flowGauge = (
    name: string,
    help: string,
    stabilityLevel: "ALPHA" | "BETA",
    field: "waiting" | "waitingSeats" | "executing" | "executingSeats",
  ) =>
    registry.gauge({
      name: `apiserver_flowcontrol_${name}`,
      help,
      labelNames: ["priority_level", "flow_schema"],
      stabilityLevel,
      collect() {
        this.reset();
        for (const flow of gauges.flows()) {
          this.set({ priority_level: flow.priorityLevel, flow_schema: flow.flowSchema }, flow[field]);
        }
      },
    });
  flowGauge(
    "current_inqueue_requests",
    "Number of requests currently pending in queues of the API Priority and Fairness subsystem",
    "BETA",
    "waiting",
  );
  flowGauge(
    "current_inqueue_seats",
    "Number of seats currently pending in queues of the API Priority and Fairness subsystem",
    "ALPHA",
    "waitingSeats",
  );
  flowGauge(
    "current_executing_requests",
    "Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem",
    "BETA",
    "executing",
  );
  flowGauge(
    "current_executing_seats",
    "Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem",
    "BETA",
    "executingSeats",
  );
  return {
    rejected: registry.counter({
      name: "apiserver_flowcontrol_rejected_requests_total",
      help: "Number of requests rejected by API Priority and Fairness subsystem",
      labelNames: ["priority_level", "flow_schema", "reason"],
      stabilityLevel: "BETA",
    }),
    dispatched: registry.counter({
      name: "apiserver_flowcontrol_dispatched_requests_total",
      help: "Number of requests executed by API Priority and Fairness subsystem",
      labelNames: ["priority_level", "flow_schema"],
      stabilityLevel: "BETA",
    }),
    waitDuration: registry.histogram({
      name: "apiserver_flowcontrol_request_wait_duration_seconds",
      help: "Length of time a request spent waiting in its queue",
      labelNames: ["priority_level", "flow_schema", "execute"],
      buckets: durationBuckets,
      stabilityLevel: "BETA",
    }),
    executionSeconds: registry.histogram({
      name: "apiserver_flowcontrol_request_execution_seconds",
      help: "Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem",
      labelNames: ["priority_level", "flow_schema", "type"],
      buckets: durationBuckets,
      stabilityLevel: "ALPHA",
    }),
    queueLength: registry.histogram({
      name: "apiserver_flowcontrol_request_queue_length_after_enqueue",
      help: "Length of queue in the API Priority and Fairness subsystem, as seen by each request after it is enqueued",
      labelNames: ["priority_level", "flow_schema"],
      buckets: queueLengthBuckets,
      stabilityLevel: "ALPHA",
    }),
    estimatedSeats: registry.histogram({
      name: "apiserver_flowcontrol_work_estimated_seats",
      help: "Number of estimated seats (maximum of initial and final seats) associated with requests in API Priority and Fairness",
      labelNames: ["priority_level", "flow_schema"],
      buckets: [1, 2, 4, 8, 16, 32, 64, 100],
      stabilityLevel: "ALPHA",
    }),
  };
}
