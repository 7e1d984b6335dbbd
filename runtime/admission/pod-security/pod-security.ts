// kube-apiserver's PodSecurity admission (plugin/pkg/admission/security/podsecurity over
// k8s.io/pod-security-admission): pods are checked against the Pod Security Standards level their
// namespace's labels name. Enforce refuses pods (creates, and updates that change an image or add an
// ephemeral container); audit adds audit annotations; warn answers with Warning headers. Workloads with a
// pod template are audited and warned about, never refused. A namespace whose labels are invalid is
// refused, and tightening its enforce level warns about the existing pods that would now be refused.
import type { FieldError } from "../../errors/field-error.js";
import { formatFieldErrors } from "../../errors/format-field-error.js";
import { internal, invalid as invalidStatus } from "../../errors/status-error.js";
import type { KubeObject } from "../../object/kube-object.js";
import { builtinKind, groupKind } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { type AdmissionAttributes, type AdmissionPlugin, isNamespaceRequest } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";
import type { AdmissionPluginContext } from "../plugin-context.js";
import { CheckEvaluator, forbiddenDetail, forbiddenReason, type Verdict } from "./check-evaluator.js";
import { asObject, type JsonObject, objects, text } from "./pod-checks.js";
import { loadPodSecurityConfiguration, type PodSecurityConfiguration } from "./pod-security-configuration.js";
import {
  auditAnnotationPrefix,
  compareLevels,
  equivalentPolicies,
  fullyPrivileged,
  type LevelVersion,
  labels,
  latest,
  levelVersionString,
  type Policy,
  policyFromLabels,
  sameLevelVersion,
  sameVersion,
} from "./policy-levels.js";

const namespaces = builtinKind("", "v1", "namespaces");
const pods = builtinKind("", "v1", "pods");

/** kube's limits on checking existing pods when a namespace's enforce level tightens. */
const namespaceMaxPodsToCheck = 3000;
const namespacePodCheckTimeoutMs = 1000;

/** Pod subresources that carry no pod spec to check. */
const ignoredPodSubresources = new Set([
  "exec",
  "attach",
  "binding",
  "eviction",
  "log",
  "portforward",
  "proxy",
  "status",
]);

/** Where each workload kind keeps its pod template (kube's DefaultPodSpecExtractor). */
const podTemplatePaths: ReadonlyMap<string, readonly string[]> = new Map([
  ["/replicationcontrollers", ["spec", "template"]],
  ["/podtemplates", ["template"]],
  ["apps/replicasets", ["spec", "template"]],
  ["apps/deployments", ["spec", "template"]],
  ["apps/statefulsets", ["spec", "template"]],
  ["apps/daemonsets", ["spec", "template"]],
  ["batch/jobs", ["spec", "template"]],
  ["batch/cronjobs", ["spec", "jobTemplate", "spec", "template"]],
]);

interface Evaluation {
  warnings: string[];
  annotations: Record<string, string>;
  refusal?: string;
}

function metadataOf(obj: KubeObject | undefined): JsonObject {
  return asObject(obj?.metadata) ?? {};
}

function labelsOf(obj: KubeObject | undefined): Record<string, string> {
  const found = asObject(metadataOf(obj).labels) ?? {};
  return Object.fromEntries(Object.entries(found).map(([k, v]) => [k, text(v)]));
}

function podTemplate(obj: KubeObject, path: readonly string[]): JsonObject | undefined {
  let node: JsonObject | undefined = obj as JsonObject;
  for (const step of path) node = asObject(node?.[step]);
  return node;
}

/** kube re-evaluates a pod update only when an image changes or an ephemeral container is added. */
function significantPodUpdate(pod: KubeObject, old: KubeObject): boolean {
  const spec = asObject(pod.spec) ?? {};
  const oldSpec = asObject(old.spec) ?? {};
  for (const list of ["containers", "initContainers"]) {
    const now = objects(spec[list]);
    const before = objects(oldSpec[list]);
    if (now.length !== before.length) return true;
    if (now.some((c, i) => c.image !== before[i]?.image)) return true;
  }
  const oldEphemeral = objects(oldSpec.ephemeralContainers);
  return objects(spec.ephemeralContainers).some((c) => {
    const before = oldEphemeral.find((o) => o.name === c.name);
    return before === undefined || c.image !== before.image;
  });
}

function controllerUid(pod: KubeObject): string | undefined {
  const owner = objects(metadataOf(pod).ownerReferences).find((ref) => ref.controller === true);
  return owner === undefined ? undefined : text(owner.uid);
}

export interface PodSecurityOptions {
  /** The clock the existing-pods check's time limit reads (tests stretch it). */
  now?: () => number;
}

class PodSecurity implements AdmissionPlugin {
  readonly name = "PodSecurity";
  readonly #evaluator = new CheckEvaluator();

  constructor(
    private readonly api: ResourceApi,
    private readonly configuration: PodSecurityConfiguration,
    private readonly now: () => number,
  ) {}

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.operation !== "CREATE" && a.operation !== "UPDATE") return;
    let evaluation: Evaluation | undefined;
    if (isNamespaceRequest(a)) evaluation = await this.#namespace(a);
    else if (a.kind.group === "" && a.kind.resource.plural === "pods") evaluation = await this.#pod(a);
    else {
      const path = podTemplatePaths.get(`${a.kind.group}/${a.kind.resource.plural}`);
      if (path !== undefined) evaluation = await this.#workload(a, path);
    }
    if (evaluation === undefined) return;
    for (const warning of evaluation.warnings) a.request?.warn(warning);
    for (const [key, value] of Object.entries(evaluation.annotations)) {
      a.request?.annotate(auditAnnotationPrefix + key, value);
    }
    if (evaluation.refusal !== undefined) throw admissionForbidden(a, evaluation.refusal);
  }

  #policy(nsLabels: Record<string, string>) {
    return policyFromLabels(nsLabels, this.configuration.defaults);
  }

  #exemptNamespace(namespace: string | undefined): boolean {
    return namespace !== undefined && namespace !== "" && this.configuration.exemptions.namespaces.includes(namespace);
  }

  #exemptUser(a: AdmissionAttributes): boolean {
    const user = a.request?.user.name ?? "";
    return user !== "" && this.configuration.exemptions.usernames.includes(user);
  }

  #exemptRuntimeClass(spec: JsonObject): boolean {
    const runtimeClass = text(spec.runtimeClassName);
    return runtimeClass !== "" && this.configuration.exemptions.runtimeClasses.includes(runtimeClass);
  }

  async #readNamespace(name: string): Promise<KubeObject> {
    try {
      return (await this.api.get({ kind: namespaces, name }, { resourceVersion: "0" })).object;
    } catch (error) {
      if ((error as { code?: number }).code !== 404) throw error;
      return (await this.api.get({ kind: namespaces, name })).object;
    }
  }

  async #namespace(a: AdmissionAttributes): Promise<Evaluation | undefined> {
    if (a.subresource !== undefined && a.subresource !== "") return undefined;
    const name = text(metadataOf(a.object).name) || a.name;
    const nsLabels = labelsOf(a.object);
    const { policy, errors } = this.#policy(nsLabels);
    const refuse = () => {
      throw invalidStatus(groupKind(a.kind), a.name || name, errors);
    };
    const exemptWarning = (): Evaluation => {
      const warning = this.#exemptNamespaceWarning(name, policy, nsLabels);
      return { warnings: warning === undefined ? [] : [warning], annotations: {} };
    };
    if (a.operation === "CREATE") {
      if (errors.length > 0) refuse();
      return this.#exemptNamespace(name) ? exemptWarning() : undefined;
    }
    const old = this.#policy(labelsOf(a.oldObject));
    if (errors.length > 0 && (old.errors.length === 0 || !sameErrors(errors, old.errors))) refuse();
    if (sameLevelVersion(policy.enforce, old.policy.enforce)) return undefined;
    if (policy.enforce.level === "privileged") return undefined;
    if (
      sameVersion(policy.enforce.version, old.policy.enforce.version) &&
      compareLevels(policy.enforce.level, old.policy.enforce.level) < 1
    ) {
      return undefined;
    }
    if (this.#exemptNamespace(name)) return exemptWarning();
    return { warnings: await this.#checkExistingPods(name, policy.enforce), annotations: {} };
  }

  #exemptNamespaceWarning(name: string, policy: Policy, nsLabels: Record<string, string>): string | undefined {
    if (fullyPrivileged(policy) || equivalentPolicies(policy, this.configuration.defaults)) return undefined;
    const parts: string[] = [];
    const modes = [
      ["enforce", policy.enforce, labels.enforce, labels.enforceVersion],
      ["audit", policy.audit, labels.audit, labels.auditVersion],
      ["warn", policy.warn, labels.warn, labels.warnVersion],
    ] as const;
    for (const [mode, lv, levelLabel, versionLabel] of modes) {
      if (lv.level !== "privileged" && (levelLabel in nsLabels || versionLabel in nsLabels)) {
        parts.push(`${mode}=${levelVersionString(lv)}`);
      }
    }
    return `namespace ${JSON.stringify(name)} is exempt from Pod Security, and the policy (${parts.join(", ")}) will be ignored`;
  }

  /** The pods in the namespace that a new enforce level refuses, grouped by their reasons (kube's texts). */
  async #checkExistingPods(namespace: string, enforce: LevelVersion): Promise<string[]> {
    const deadline = this.now() + namespacePodCheckTimeoutMs;
    let items: KubeObject[];
    try {
      items = (await this.api.list({ kind: pods, namespace }, { resourceVersion: "0" })).items.map((i) => i.object);
    } catch {
      return ["failed to list pods while checking new PodSecurity enforce level"];
    }
    const prioritized = this.#prioritize(items);
    const total = prioritized.length;
    const toCheck = prioritized.slice(0, namespaceMaxPodsToCheck);
    let checked = toCheck.length;
    const byReason = new Map<string, { name: string; count: number }>();
    for (const [i, pod] of toCheck.entries()) {
      const verdict = this.#evaluator.evaluate(enforce, metadataOf(pod), asObject(pod.spec) ?? {});
      if (!verdict.allowed) {
        const reason = forbiddenReason(verdict);
        const podName = text(metadataOf(pod).name);
        const seen = byReason.get(reason);
        if (seen === undefined) byReason.set(reason, { name: podName, count: 1 });
        else {
          seen.count++;
          if (podName < seen.name) seen.name = podName;
        }
      }
      if (this.now() >= deadline) {
        checked = i + 1;
        break;
      }
    }
    const warnings: string[] = [];
    if (checked < total) {
      warnings.push(
        `new PodSecurity enforce level only checked against the first ${checked} of ${total} existing pods`,
      );
    }
    if (byReason.size > 0) {
      warnings.push(
        `existing pods in namespace ${JSON.stringify(namespace)} violate the new PodSecurity enforce level ${JSON.stringify(levelVersionString(enforce))}`,
      );
    }
    const podWarnings = [...byReason].map(([reason, { name, count }]) => {
      if (count === 1) return `${name}: ${reason}`;
      if (count === 2) return `${name} (and 1 other pod): ${reason}`;
      return `${name} (and ${count - 1} other pods): ${reason}`;
    });
    return [...warnings, ...podWarnings.sort(byteOrder)];
  }

  /** One pod per controller first, then the other replicas; pods of exempt runtime classes are left out. */
  #prioritize(items: readonly KubeObject[]): KubeObject[] {
    const first: KubeObject[] = [];
    const replicas: KubeObject[] = [];
    const controllers = new Set<string>();
    for (const pod of items) {
      if (this.#exemptRuntimeClass(asObject(pod.spec) ?? {})) continue;
      const uid = controllerUid(pod);
      if (uid === undefined) first.push(pod);
      else if (controllers.has(uid)) replicas.push(pod);
      else {
        controllers.add(uid);
        first.push(pod);
      }
    }
    return [...first, ...replicas];
  }

  async #namespacePolicy(a: AdmissionAttributes, failClosed: boolean) {
    const namespace = a.namespace ?? "";
    try {
      return this.#policy(labelsOf(await this.#readNamespace(namespace)));
    } catch (error) {
      if (failClosed) throw internal(`failed to lookup namespace ${JSON.stringify(namespace)}`);
      return `failed to lookup namespace ${JSON.stringify(namespace)}: ${(error as Error).message}`;
    }
  }

  async #pod(a: AdmissionAttributes): Promise<Evaluation | undefined> {
    if (ignoredPodSubresources.has(a.subresource ?? "")) return undefined;
    if (this.#exemptNamespace(a.namespace)) return exempt("namespace");
    if (this.#exemptUser(a)) return exempt("user");
    const found = await this.#namespacePolicy(a, true);
    if (typeof found === "string") return undefined;
    const { policy, errors } = found;
    if (errors.length === 0 && fullyPrivileged(policy)) {
      return {
        warnings: [],
        annotations: { "enforce-policy": levelVersionString({ level: "privileged", version: latest }) },
      };
    }
    const pod = a.object as KubeObject;
    if (a.operation === "UPDATE" && a.oldObject !== undefined && !significantPodUpdate(pod, a.oldObject)) {
      return undefined;
    }
    return this.#evaluate(
      policy,
      errors.length > 0 ? errors : undefined,
      metadataOf(pod),
      asObject(pod.spec) ?? {},
      true,
    );
  }

  async #workload(a: AdmissionAttributes, path: readonly string[]): Promise<Evaluation | undefined> {
    if (a.subresource !== undefined && a.subresource !== "") return undefined;
    if (this.#exemptNamespace(a.namespace)) return exempt("namespace");
    if (this.#exemptUser(a)) return exempt("user");
    const found = await this.#namespacePolicy(a, false);
    if (typeof found === "string") return { warnings: [], annotations: { error: found } };
    const { policy, errors } = found;
    if (errors.length === 0 && policy.warn.level === "privileged" && policy.audit.level === "privileged") {
      return undefined;
    }
    const template = a.object === undefined ? undefined : podTemplate(a.object, path);
    if (template === undefined) return undefined;
    const errs = errors.length > 0 ? errors : undefined;
    return this.#evaluate(policy, errs, asObject(template.metadata) ?? {}, asObject(template.spec) ?? {}, false);
  }

  #evaluate(
    policy: Policy,
    labelErrors: readonly FieldError[] | undefined,
    podMetadata: JsonObject,
    podSpec: JsonObject,
    enforce: boolean,
  ): Evaluation {
    if (this.#exemptRuntimeClass(podSpec)) return exempt("runtimeClass");
    const annotations: Record<string, string> = {};
    if (labelErrors !== undefined) annotations.error = `Failed to parse policy: ${formatFieldErrors(labelErrors)}`;
    const results: { lv: LevelVersion; verdict: Verdict }[] = [];
    const verdict = (lv: LevelVersion): Verdict => {
      const cached = results.find((r) => sameLevelVersion(r.lv, lv));
      if (cached !== undefined) return cached.verdict;
      const result = this.#evaluator.evaluate(lv, podMetadata, podSpec);
      results.push({ lv, verdict: result });
      return result;
    };
    const evaluation: Evaluation = { warnings: [], annotations };
    if (enforce) {
      annotations["enforce-policy"] = levelVersionString(policy.enforce);
      const result = verdict(policy.enforce);
      if (!result.allowed) {
        evaluation.refusal = `violates PodSecurity ${JSON.stringify(levelVersionString(policy.enforce))}: ${forbiddenDetail(result)}`;
      }
    }
    const audit = verdict(policy.audit);
    if (!audit.allowed) {
      annotations["audit-violations"] =
        `would violate PodSecurity ${JSON.stringify(levelVersionString(policy.audit))}: ${forbiddenDetail(audit)}`;
    }
    if (evaluation.refusal === undefined) {
      const warn = verdict(policy.warn);
      if (!warn.allowed) {
        evaluation.warnings.push(
          `would violate PodSecurity ${JSON.stringify(levelVersionString(policy.warn))}: ${forbiddenDetail(warn)}`,
        );
      }
    }
    return evaluation;
  }
}

function exempt(reason: "namespace" | "user" | "runtimeClass"): Evaluation {
  return { warnings: [], annotations: { exempt: reason } };
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** kube compares the label errors of the old and new namespace with reflect.DeepEqual. */
function sameErrors(a: readonly FieldError[], b: readonly FieldError[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The plugin, configured by its PodSecurityConfiguration (none: privileged by default, nothing exempt). */
export function podSecurity(context: AdmissionPluginContext, options: PodSecurityOptions = {}): AdmissionPlugin {
  const configuration = loadPodSecurityConfiguration(context.config?.text);
  return new PodSecurity(context.resources, configuration, options.now ?? Date.now);
}
