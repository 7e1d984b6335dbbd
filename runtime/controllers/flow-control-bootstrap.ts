// kube-apiserver's priority-and-fairness-config-producer hook: the bootstrap PriorityLevelConfigurations and
// FlowSchemas (flow-control-defaults.ts) are ensured at start, trying every second, and then once a minute:
// a missing one is created; a mandatory one gets its spec put back when it differs; a suggested one only
// while its `apf.kubernetes.io/autoupdate-spec` annotation says true (absent: while it is at generation 1),
// and the annotation is set to what was decided; an object of another name that says true is deleted.
// Objects are written as `api-priority-and-fairness-config-producer-v1`. What they classify is not served.
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../object/kube-object.js";
import type { ServedKind } from "../registry/served-kind.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { statusCode, statusReason } from "./api-errors.js";
import { flowSchemas, pause, priorityLevelConfigurations } from "./apiserver-kinds.js";
import type { ControllerContext } from "./controller-context.js";
import { type FlowControlConfiguration, mandatoryFlowControl, suggestedFlowControl } from "./flow-control-defaults.js";

const owner = { manager: "api-priority-and-fairness-config-producer-v1" };
const autoUpdateKey = "apf.kubernetes.io/autoupdate-spec";
const flowControlApiVersion = "flowcontrol.apiserver.k8s.io/v1";

interface Metadata {
  name: string;
  generation?: number;
  annotations?: Record<string, string>;
}

const metadataOf = (object: KubeObject) => object.metadata as Metadata;

/** Go's strconv.ParseBool; undefined for anything it refuses. */
function parseBool(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (["1", "t", "T", "TRUE", "true", "True"].includes(value)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(value)) return false;
  return undefined;
}

/** The exempt priority level's shares and lendable percent are the cluster's to tune, as kube leaves them. */
const tunableExemptFields = ["nominalConcurrencyShares", "lendablePercent"];

function specMatches(kind: ServedKind, bootstrap: KubeObject, current: KubeObject): boolean {
  const expected = structuredClone(bootstrap.spec) as Record<string, Record<string, unknown>>;
  const actual = current.spec as Record<string, Record<string, unknown> | null | undefined> | undefined;
  if (kind === priorityLevelConfigurations && metadataOf(bootstrap).name === "exempt") {
    const exempt = actual?.exempt;
    if (exempt === undefined || exempt === null) return false;
    const expectedExempt = { ...expected.exempt };
    for (const key of tunableExemptFields) {
      if (key in exempt) expectedExempt[key] = exempt[key];
      else delete expectedExempt[key];
    }
    expected.exempt = expectedExempt;
  }
  return isDeepStrictEqual(expected, actual);
}

/** The object to write back, or undefined when it is as it should be. */
function revision(kind: ServedKind, bootstrap: KubeObject, current: KubeObject, mandatory: boolean) {
  const metadata = metadataOf(current);
  const said = parseBool(metadata.annotations?.[autoUpdateKey]);
  const autoUpdate = mandatory || (said ?? metadata.generation === 1);
  const fixAnnotation = said !== autoUpdate;
  const fixSpec = autoUpdate && !specMatches(kind, bootstrap, current);
  if (!fixAnnotation && !fixSpec) return undefined;
  const revised = structuredClone(current);
  if (fixSpec) revised.spec = structuredClone(bootstrap.spec);
  if (fixAnnotation) {
    const revisedMetadata = metadataOf(revised);
    revisedMetadata.annotations = { ...revisedMetadata.annotations, [autoUpdateKey]: String(autoUpdate) };
  }
  return revised;
}

async function ensureOne(api: ResourceApi, kind: ServedKind, bootstrap: KubeObject, mandatory: boolean) {
  const name = metadataOf(bootstrap).name;
  for (;;) {
    let current: KubeObject;
    try {
      current = (await api.get({ kind, name })).object;
    } catch (error) {
      if (statusCode(error) !== 404) throw error;
      try {
        const object = { apiVersion: flowControlApiVersion, kind: kind.kind, ...structuredClone(bootstrap) };
        await api.create({ kind }, object, { owner });
        return;
      } catch (createError) {
        if (statusReason(createError) === "AlreadyExists") continue;
        throw createError;
      }
    }
    const revised = revision(kind, bootstrap, current, mandatory);
    if (revised === undefined) return;
    try {
      await api.update({ kind, name }, revised, { owner });
    } catch (error) {
      // Someone else wrote it meanwhile: the next round looks again.
      if (statusCode(error) !== 409) throw error;
    }
    return;
  }
}

async function ensureConfiguration(api: ResourceApi, configuration: FlowControlConfiguration, mandatory: boolean) {
  for (const object of configuration.priorityLevelConfigurations) {
    await ensureOne(api, priorityLevelConfigurations, object, mandatory);
  }
  for (const object of configuration.flowSchemas) await ensureOne(api, flowSchemas, object, mandatory);
}

async function removeDangling(api: ResourceApi, kind: ServedKind, wanted: readonly KubeObject[]) {
  const names = new Set(wanted.map((object) => metadataOf(object).name));
  for (const { object } of (await api.list({ kind })).items) {
    const metadata = metadataOf(object);
    if (names.has(metadata.name) || parseBool(metadata.annotations?.[autoUpdateKey]) !== true) continue;
    try {
      await api.delete({ kind, name: metadata.name });
    } catch (error) {
      if (statusCode(error) !== 404) throw error;
    }
  }
}

/** One round of kube's ensurer: suggested, then mandatory, then the removal of dangling bootstrap objects. */
export async function ensureFlowControlBootstrap(api: ResourceApi): Promise<void> {
  await ensureConfiguration(api, suggestedFlowControl, false);
  await ensureConfiguration(api, mandatoryFlowControl, true);
  await removeDangling(api, flowSchemas, [...mandatoryFlowControl.flowSchemas, ...suggestedFlowControl.flowSchemas]);
  await removeDangling(api, priorityLevelConfigurations, [
    ...mandatoryFlowControl.priorityLevelConfigurations,
    ...suggestedFlowControl.priorityLevelConfigurations,
  ]);
}

export interface FlowControlBootstrapOptions {
  /** Between attempts at start; default 1 s. */
  retryMs?: number;
  /** Between rounds once started; default 1 minute. */
  periodMs?: number;
  /** The start gives up after; default 5 minutes. */
  startTimeoutMs?: number;
}

export class FlowControlBootstrap {
  private readonly retryMs: number;
  private readonly periodMs: number;
  private readonly startTimeoutMs: number;

  constructor(
    private readonly api: ResourceApi,
    private readonly context: ControllerContext,
    options: FlowControlBootstrapOptions = {},
  ) {
    this.retryMs = options.retryMs ?? 1000;
    this.periodMs = options.periodMs ?? 60_000;
    this.startTimeoutMs = options.startTimeoutMs ?? 5 * 60_000;
  }

  /** Resolves once a first round succeeded (the post-start hook's done); rejects after the start timeout. */
  async start(): Promise<void> {
    const deadline = Date.now() + this.startTimeoutMs;
    const { signal } = this.context;
    while (!signal.aborted) {
      try {
        await ensureFlowControlBootstrap(this.api);
        return;
      } catch (error) {
        this.context.log("APF bootstrap ensurer ran into error, will retry later", error);
      }
      if (Date.now() + this.retryMs > deadline) {
        throw new Error("unable to initialize APF bootstrap configuration: timed out waiting for the condition");
      }
      await pause(this.retryMs, signal);
    }
  }

  /** After start(): one round a minute until the signal aborts. */
  async run(): Promise<void> {
    const { signal } = this.context;
    for (;;) {
      await pause(this.periodMs, signal);
      if (signal.aborted) return;
      try {
        await ensureFlowControlBootstrap(this.api);
      } catch (error) {
        if (!signal.aborted) this.context.log("APF bootstrap ensurer ran into error, will retry later", error);
      }
    }
  }
}
