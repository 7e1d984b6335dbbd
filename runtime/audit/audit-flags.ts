// kube-apiserver's audit flags (k8s.io/apiserver/pkg/server/options/audit.go): their names, defaults and
// validation texts, and the backend they configure: the log backend (`--audit-log-*`) and the webhook
// backend (`--audit-webhook-*`), each wrapped by its mode (blocking, blocking-strict, batch) and truncation.
// Without `--audit-policy-file` nothing is audited, whatever backend is configured, as in kube.
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseGoDuration } from "../authz/authorization-config.js";
import { loadWebhookClient } from "../http/webhook-client.js";
import { type AuditBackend, ignoreErrors, unionBackend } from "./audit-backend.js";
import type { AuditMetrics } from "./audit-metrics.js";
import { loadPolicyFile, type Policy } from "./audit-policy.js";
import { type BatchConfig, bufferedBackend } from "./buffered-backend.js";
import { type LogFormat, logBackend, logFormats } from "./log-backend.js";
import { RotatingFile } from "./rotating-file.js";
import { type TruncateConfig, truncateBackend } from "./truncate-backend.js";
import { sendToWebhook } from "./webhook-backend.js";

const modes = ["batch", "blocking", "blocking-strict"] as const;
type Mode = (typeof modes)[number];
const plugins = ["log", "webhook"] as const;
type Plugin = (typeof plugins)[number];

const pluginFlags = (p: Plugin) => [
  `audit-${p}-mode`,
  `audit-${p}-batch-buffer-size`,
  `audit-${p}-batch-max-size`,
  `audit-${p}-batch-max-wait`,
  `audit-${p}-batch-throttle-qps`,
  `audit-${p}-batch-throttle-burst`,
  `audit-${p}-truncate-max-batch-size`,
  `audit-${p}-truncate-max-event-size`,
  `audit-${p}-version`,
];

/** The audit flags that take a value. */
export const auditStringFlags: readonly string[] = [
  "audit-policy-file",
  "audit-log-path",
  "audit-log-maxage",
  "audit-log-maxbackup",
  "audit-log-maxsize",
  "audit-log-format",
  "audit-webhook-config-file",
  "audit-webhook-initial-backoff",
  "audit-webhook-batch-initial-backoff",
  ...pluginFlags("log"),
  ...pluginFlags("webhook"),
];

/** The audit flags that are booleans (bare, or `=true|false`). */
export const auditBooleanFlags: readonly string[] = [
  "audit-log-compress",
  "audit-log-batch-throttle-enable",
  "audit-webhook-batch-throttle-enable",
  "audit-log-truncate-enabled",
  "audit-webhook-truncate-enabled",
];

export interface PluginOptions {
  mode: Mode;
  batch: BatchConfig;
  truncate: TruncateConfig & { enabled: boolean };
}

export interface AuditFlags {
  policyFile?: string;
  log?: PluginOptions & {
    path: string;
    format: LogFormat;
    maxSizeMB: number;
    maxBackups: number;
    maxAgeDays: number;
    compress: boolean;
  };
  webhook?: PluginOptions & { configFile: string; initialBackoffMs: number };
}

type Values = Readonly<Record<string, string | undefined>>;

function invalidArgument(name: string, value: string, detail: string): Error {
  return new Error(`invalid argument "${value}" for "--${name}" flag: ${detail}`);
}

function intFlag(v: Values, name: string, fallback: number): number {
  const value = v[name];
  if (value === undefined) return fallback;
  if (!/^[+-]?\d+$/.test(value))
    throw invalidArgument(name, value, `strconv.ParseInt: parsing "${value}": invalid syntax`);
  return Number(value);
}

function floatFlag(v: Values, name: string, fallback: number): number {
  const value = v[name];
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === "" || Number.isNaN(n)) {
    throw invalidArgument(name, value, `strconv.ParseFloat: parsing "${value}": invalid syntax`);
  }
  return n;
}

function boolFlag(v: Values, name: string, fallback: boolean): boolean {
  const value = v[name];
  if (value === undefined) return fallback;
  if (value === "" || value === "true") return true;
  if (value === "false") return false;
  throw invalidArgument(name, value, `strconv.ParseBool: parsing "${value}": invalid syntax`);
}

function durationFlag(v: Values, name: string, fallbackMs: number): number {
  const value = v[name];
  if (value === undefined) return fallbackMs;
  try {
    return Number(parseGoDuration(value) / 1_000_000n);
  } catch (error) {
    throw invalidArgument(name, value, (error as Error).message);
  }
}

function pluginOptions(v: Values, p: Plugin, errors: string[]): PluginOptions {
  const webhook = p === "webhook";
  const mode = (v[`audit-${p}-mode`] ?? (webhook ? "batch" : "blocking")) as Mode;
  const batch: BatchConfig = {
    bufferSize: intFlag(v, `audit-${p}-batch-buffer-size`, 10000),
    maxBatchSize: intFlag(v, `audit-${p}-batch-max-size`, webhook ? 400 : 1),
    maxBatchWaitMs: durationFlag(v, `audit-${p}-batch-max-wait`, webhook ? 30_000 : 0),
    throttleEnable: boolFlag(v, `audit-${p}-batch-throttle-enable`, webhook),
    throttleQPS: floatFlag(v, `audit-${p}-batch-throttle-qps`, webhook ? 10 : 0),
    throttleBurst: intFlag(v, `audit-${p}-batch-throttle-burst`, webhook ? 15 : 0),
    asyncDelegate: webhook,
  };
  const truncate = {
    enabled: boolFlag(v, `audit-${p}-truncate-enabled`, false),
    maxBatchSize: intFlag(v, `audit-${p}-truncate-max-batch-size`, 10 * 1024 * 1024),
    maxEventSize: intFlag(v, `audit-${p}-truncate-max-event-size`, 100 * 1024),
  };
  if (!modes.includes(mode)) {
    errors.push(`invalid audit ${p} mode ${mode}, allowed modes are "${modes.join(",")}"`);
  } else if (mode === "batch") {
    if (batch.bufferSize <= 0) {
      errors.push(`invalid audit batch ${p} buffer size ${batch.bufferSize}, must be a positive number`);
    } else if (batch.maxBatchSize <= 0) {
      errors.push(`invalid audit batch ${p} max batch size ${batch.maxBatchSize}, must be a positive number`);
    } else if (batch.throttleEnable && batch.throttleQPS <= 0) {
      errors.push(`invalid audit batch ${p} throttle QPS ${batch.throttleQPS}, must be a positive number`);
    } else if (batch.throttleEnable && batch.throttleBurst <= 0) {
      errors.push(`invalid audit batch ${p} throttle burst ${batch.throttleBurst}, must be a positive number`);
    }
  }
  if (truncate.maxEventSize <= 0) {
    errors.push(`invalid audit truncate ${p} max event size ${truncate.maxEventSize}, must be a positive number`);
  } else if (truncate.maxBatchSize < truncate.maxEventSize) {
    errors.push(
      `invalid audit truncate ${p} max batch size ${truncate.maxBatchSize}, must be greater than max event size (${truncate.maxEventSize})`,
    );
  }
  const version = v[`audit-${p}-version`] ?? "audit.k8s.io/v1";
  if (version !== "audit.k8s.io/v1") {
    errors.push(
      version.split("/").length > 2
        ? `unexpected GroupVersion string: ${version}`
        : `invalid group version, allowed versions are "[audit.k8s.io/v1]"`,
    );
  }
  return { mode, batch, truncate };
}

/** Reads and validates the audit flags; kube's validation errors, all of them, in one thrown message. */
export function parseAuditFlags(v: Values): AuditFlags | undefined {
  const errors: string[] = [];
  const flags: AuditFlags = {};
  if (v["audit-policy-file"] !== undefined && v["audit-policy-file"] !== "") flags.policyFile = v["audit-policy-file"];
  const path = v["audit-log-path"] ?? "";
  if (path !== "") {
    const plugin = pluginOptions(v, "log", errors);
    const format = (v["audit-log-format"] ?? "json") as LogFormat;
    if (!logFormats.includes(format)) {
      errors.push(`invalid audit log format ${format}, allowed formats are "${logFormats.join(",")}"`);
    }
    const maxAgeDays = intFlag(v, "audit-log-maxage", 366);
    const maxBackups = intFlag(v, "audit-log-maxbackup", 100);
    const maxSizeMB = intFlag(v, "audit-log-maxsize", 100);
    if (maxAgeDays < 0) errors.push(`--audit-log-maxage ${maxAgeDays} can't be a negative number`);
    if (maxBackups < 0) errors.push(`--audit-log-maxbackup ${maxBackups} can't be a negative number`);
    if (maxSizeMB < 0) errors.push(`--audit-log-maxsize ${maxSizeMB} can't be a negative number`);
    flags.log = {
      ...plugin,
      path,
      format,
      maxSizeMB,
      maxBackups,
      maxAgeDays,
      compress: boolFlag(v, "audit-log-compress", false),
    };
  }
  const configFile = v["audit-webhook-config-file"] ?? "";
  if (configFile !== "") {
    const initial = v["audit-webhook-initial-backoff"] ?? v["audit-webhook-batch-initial-backoff"];
    flags.webhook = {
      ...pluginOptions(v, "webhook", errors),
      configFile,
      initialBackoffMs: durationFlag({ backoff: initial }, "backoff", 10_000),
    };
  }
  if (errors.length > 0) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(", ")}]`);
  return Object.keys(flags).length === 0 ? undefined : flags;
}

function wrapMode(
  backend: AuditBackend,
  options: PluginOptions,
  metrics: AuditMetrics | undefined,
  send?: Parameters<typeof bufferedBackend>[3],
): AuditBackend {
  if (options.mode === "blocking-strict") return backend;
  if (options.mode === "blocking") return ignoreErrors(backend);
  return bufferedBackend(backend, options.batch, (n) => metrics?.pluginError("buffered", n), send);
}

function wrapTruncate(backend: AuditBackend, options: PluginOptions, metrics: AuditMetrics | undefined): AuditBackend {
  if (!options.truncate.enabled) return backend;
  return truncateBackend(backend, options.truncate, (n) => metrics?.pluginError("truncate", n));
}

export interface AuditSetup {
  policy: Policy;
  backend: AuditBackend;
}

/** The policy and backend the flags configure; undefined when nothing is audited (no policy, or no backend). */
export function createAuditSetup(
  flags: AuditFlags,
  metrics: AuditMetrics | undefined,
  warn: (message: string) => void,
): AuditSetup | undefined {
  // The policy is read first; then kube creates the log file (0600), even when nothing will be audited.
  const policy = flags.policyFile === undefined ? undefined : loadPolicyFile(flags.policyFile, warn);
  if (flags.log !== undefined && flags.log.path !== "-") {
    mkdirSync(dirname(resolve(flags.log.path)), { recursive: true, mode: 0o700 });
    closeSync(openSync(resolve(flags.log.path), "a", 0o600));
  }
  if (policy === undefined) return undefined;
  const backends: AuditBackend[] = [];
  const log = flags.log;
  if (log !== undefined) {
    const onError = (error: unknown, n: number) => {
      metrics?.pluginError("log", n);
      warn(`Error in audit plugin 'log' affecting ${n} audit events: ${(error as Error).message ?? error}`);
    };
    const backend =
      log.path === "-"
        ? logBackend((text) => process.stdout.write(text), log.format, onError)
        : (() => {
            // Blocking mode only counts a failed write: the file may hold a RequestReceived line a moment.
            const file = new RotatingFile(
              resolve(log.path),
              log,
              log.mode === "blocking" ? (error, n) => onError(error, n) : undefined,
            );
            return logBackend(
              (text, deferrable) => file.write(text, deferrable),
              log.format,
              onError,
              () => file.close(),
            );
          })();
    backends.push(wrapTruncate(wrapMode(backend, log, metrics), log, metrics));
  }
  const webhook = flags.webhook;
  if (webhook !== undefined) {
    const client = loadWebhookClient(webhook.configFile);
    const fail = (error: unknown, n: number) => {
      metrics?.pluginError("webhook", n);
      warn(`Error in audit plugin 'webhook' affecting ${n} audit events: ${(error as Error).message ?? error}`);
    };
    const send = (events: readonly import("./audit-sink.js").AuditEvent[]) =>
      sendToWebhook(client, events, webhook.initialBackoffMs).catch((error) => fail(error, events.length));
    const direct: AuditBackend = {
      processEvents(events) {
        // Blocking modes wait for nothing on the event loop; the outcome is counted when it comes.
        void send(events);
        return true;
      },
      shutdown: async () => {},
    };
    backends.push(wrapTruncate(wrapMode(direct, webhook, metrics, send), webhook, metrics));
  }
  const backend = unionBackend(backends);
  return backend === undefined ? undefined : { policy, backend };
}
