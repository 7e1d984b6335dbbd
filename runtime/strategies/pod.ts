// Pods as kube-apiserver's pod registry treats them: the initial Pending status and QoS class, the spec
// fields an update may change, ephemeral containers added through their subresource, graceful deletion
// of pods bound to a node, and the deleted pod returned by a delete.
import { duplicate, type FieldError, forbidden, invalid, notFound } from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";
import { goJson } from "../errors/go-format.js";
import type { KubeObject } from "../object/kube-object.js";
import type { WriteEnvironment } from "../registry/strategy.js";
import { formatTime } from "../resources/timestamps.js";
import { inclusiveRangeError, maxInt32, semanticEqual } from "../validation/field-rules.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import type { KindStrategy } from "./hook-request.js";
import { bindPod } from "./pod-binding.js";
import { podConnectHooks } from "./pod-connect.js";
import { evictPod } from "./pod-eviction.js";
import { podQOSClass } from "./pod-qos.js";
import { prepareResize, validateResize } from "./pod-resize.js";
import { type PodCapabilities, podCapabilities, validateContainer, validatePodSpec } from "./pod-spec-validation.js";
import { strategy as podTemplate } from "./pod-template.js";

const updatableSpecFields = [
  "`spec.containers[*].image`",
  "`spec.initContainers[*].image`",
  "`spec.activeDeadlineSeconds`",
  "`spec.tolerations` (only additions to existing tolerations)",
  "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
];

function specOf(obj: JsonObject): JsonObject {
  return asObject(obj.spec) ?? {};
}

function names(list: unknown): string[] {
  return listItems(list).map((c) => String(asObject(c)?.name ?? ""));
}

/** The fields that differ, one `-`/`+` pair each: kube prints a Go diff of the two specs here. */
function specDiff(old: JsonObject, changed: JsonObject): string {
  const keys = [...new Set([...Object.keys(old), ...Object.keys(changed)])].sort();
  const lines: string[] = [];
  for (const k of keys) {
    if (semanticEqual(old[k], changed[k])) continue;
    if (old[k] !== undefined) lines.push(`- ${k}: ${goJson(old[k])}`);
    if (changed[k] !== undefined) lines.push(`+ ${k}: ${goJson(changed[k])}`);
  }
  return lines.join("\n");
}

function withOldImages(list: unknown, oldList: unknown): unknown {
  const old = listItems(oldList);
  return listItems(list).map((c, i) => ({ ...asObject(c), image: asObject(old[i])?.image }));
}

function sameExceptTolerationSeconds(a: unknown, b: unknown): boolean {
  return semanticEqual(
    { ...asObject(a), tolerationSeconds: undefined },
    { ...asObject(b), tolerationSeconds: undefined },
  );
}

/** ValidatePodUpdate: only images, a shorter deadline, added tolerations and removed gates may change. */
function validateSpecUpdate(spec: JsonObject, old: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const list of ["containers", "initContainers"]) {
    if (listItems(spec[list]).length !== listItems(old[list]).length) {
      return [...errs, forbidden(child("spec", list), "pod updates may not add or remove containers")];
    }
  }
  const deadline = spec.activeDeadlineSeconds;
  const oldDeadline = old.activeDeadlineSeconds;
  const deadlinePath = "spec.activeDeadlineSeconds";
  if (typeof deadline === "number") {
    if (deadline < 0 || deadline > maxInt32) return [invalid(deadlinePath, deadline, inclusiveRangeError(0, maxInt32))];
    if (typeof oldDeadline === "number" && oldDeadline < deadline) {
      return [invalid(deadlinePath, deadline, "must be less than or equal to previous value")];
    }
  } else if (typeof oldDeadline === "number") {
    errs.push(invalid(deadlinePath, null, "must not update from a positive integer to nil value"));
  }
  const tolerations = listItems(spec.tolerations);
  if (!listItems(old.tolerations).every((t) => tolerations.some((n) => sameExceptTolerationSeconds(t, n)))) {
    errs.push(forbidden("spec.tolerations", "existing toleration can not be modified except its tolerationSeconds"));
  }
  const oldGates = new Set(names(old.schedulingGates));
  names(spec.schedulingGates).forEach((gate, i) => {
    if (!oldGates.has(gate)) {
      const detail = `only deletion is allowed, but found new scheduling gate '${gate}'`;
      errs.push(forbidden(child(index("spec.schedulingGates", i), "name"), detail));
    }
  });
  if (semanticEqual(spec, old)) return errs;
  const munged: JsonObject = {
    ...spec,
    containers: withOldImages(spec.containers, old.containers),
    initContainers: withOldImages(spec.initContainers, old.initContainers),
    activeDeadlineSeconds: oldDeadline,
    schedulingGates: old.schedulingGates,
    tolerations: old.tolerations,
  };
  const grace = munged.terminationGracePeriodSeconds;
  const oldGrace = old.terminationGracePeriodSeconds;
  if (typeof oldGrace === "number" && oldGrace < 0 && grace === 1) munged.terminationGracePeriodSeconds = oldGrace;
  if (!semanticEqual(munged, old)) {
    const detail = `pod updates may not change fields other than ${updatableSpecFields.join(",")}\n${specDiff(old, munged)}`;
    errs.push(forbidden("spec", detail));
  }
  return errs;
}

/** ValidatePodEphemeralContainersUpdate: existing ephemeral containers stay as they are. */
function validateEphemeralContainers(spec: JsonObject, old: JsonObject, capabilities: PodCapabilities): FieldError[] {
  const errs: FieldError[] = [];
  const path = "spec.ephemeralContainers";
  const current = new Map(listItems(spec.ephemeralContainers).map((c) => [String(asObject(c)?.name ?? ""), c]));
  for (const item of listItems(old.ephemeralContainers)) {
    const name = String(asObject(item)?.name ?? "");
    const now = current.get(name);
    if (now === undefined) errs.push(forbidden(path, `existing ephemeral containers "${name}" may not be removed\n`));
    else if (!semanticEqual(item, now)) {
      const detail = `existing ephemeral containers "${name}" may not be changed\n${specDiff(asObject(item) ?? {}, asObject(now) ?? {})}`;
      errs.push(forbidden(path, detail));
    }
  }
  const volumes = new Set(names(spec.volumes));
  const others = new Set([...names(spec.containers), ...names(spec.initContainers)]);
  const seen = new Set(others);
  listItems(spec.ephemeralContainers).forEach((item, i) => {
    const ctr = asObject(item) ?? {};
    const ctrPath = index(path, i);
    errs.push(...validateContainer(ctr, volumes, ctrPath, capabilities));
    const name = String(ctr.name ?? "");
    if (seen.has(name)) errs.push(duplicate(child(ctrPath, "name"), name));
    seen.add(name);
    const target = ctr.targetContainerName;
    if (typeof target === "string" && target !== "" && !others.has(target)) {
      errs.push(notFound(child(ctrPath, "targetContainerName"), target));
    }
  });
  return errs;
}

function validateCreate(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  if (listItems(spec.ephemeralContainers).length > 0) {
    errs.push(forbidden("spec.ephemeralContainers", "cannot be set on create"));
  }
  if (typeof spec.nodeName === "string" && spec.nodeName !== "" && listItems(spec.schedulingGates).length > 0) {
    errs.push(forbidden("spec.nodeName", "cannot be set until all schedulingGates have been cleared"));
  }
  return errs;
}

/** CheckGracefulDeletion: bound, running pods get their grace period; others go at once. */
function gracePeriodSeconds(obj: KubeObject, requested: number | undefined): number {
  const spec = specOf(obj);
  const phase = asObject(obj.status)?.phase;
  const configured = typeof spec.terminationGracePeriodSeconds === "number" ? spec.terminationGracePeriodSeconds : 0;
  let period = requested ?? configured;
  if (typeof spec.nodeName !== "string" || spec.nodeName === "") period = 0;
  if (phase === "Failed" || phase === "Succeeded") period = 0;
  return period < 0 ? 1 : period;
}

/** A binding's write: PodScheduled=True (its transition time kept when it was True already); no new generation. */
function bound(obj: KubeObject, old: KubeObject): void {
  const meta = asObject(obj.metadata) ?? {};
  const generation = asObject(old.metadata)?.generation;
  if (generation === undefined) delete meta.generation;
  else meta.generation = generation;
  const status = asObject(obj.status) ?? {};
  const conditions = listItems(status.conditions).map((c) => asObject(c) ?? {});
  const scheduled = conditions.find((c) => c.type === "PodScheduled");
  const now = formatTime(new Date());
  const condition = { type: "PodScheduled", status: "True", lastProbeTime: null, lastTransitionTime: now };
  if (scheduled === undefined) conditions.push(condition);
  else {
    if (scheduled.status === "True") condition.lastTransitionTime = String(scheduled.lastTransitionTime);
    for (const key of Object.keys(scheduled)) delete scheduled[key];
    Object.assign(scheduled, condition);
  }
  obj.status = { ...status, conditions };
}

export const strategy: KindStrategy = {
  createHooks: { binding: bindPod, eviction: evictPod },
  connectHooks: podConnectHooks,
  objectSubresources: ["ephemeralcontainers", "resize"],
  default(obj: KubeObject): void {
    podTemplate.default?.(obj);
  },
  prepareForCreate(obj: KubeObject): void {
    const spec = specOf(obj);
    const status: JsonObject = { phase: "Pending", qosClass: podQOSClass(spec) };
    if (listItems(spec.schedulingGates).length > 0) {
      status.conditions = [
        {
          type: "PodScheduled",
          status: "False",
          lastProbeTime: null,
          lastTransitionTime: null,
          reason: "SchedulingGated",
          message: "Scheduling is blocked due to non-empty scheduling gates",
        },
      ];
    }
    obj.status = status;
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, subresource?: string): void {
    if (subresource === "binding") bound(obj, old);
    else if (subresource === "resize") prepareResize(obj, old);
    if (subresource !== "ephemeralcontainers") return;
    // Through this subresource only the ephemeral containers change (dropNonEphemeralContainerUpdates).
    const ephemeral = specOf(obj).ephemeralContainers;
    const meta = asObject(obj.metadata) ?? {};
    const kept = structuredClone(old);
    const keptMeta = asObject(kept.metadata) ?? {};
    for (const field of ["name", "namespace", "resourceVersion", "uid"]) {
      if (meta[field] !== undefined) keptMeta[field] = meta[field];
    }
    const keptSpec = specOf(kept);
    if (ephemeral === undefined) delete keptSpec.ephemeralContainers;
    else keptSpec.ephemeralContainers = ephemeral;
    for (const key of Object.keys(obj)) delete obj[key];
    Object.assign(obj, kept, { metadata: keptMeta, spec: keptSpec });
  },
  validate(obj: KubeObject, old?: KubeObject, subresource?: string, env?: WriteEnvironment): FieldError[] {
    // A binding changes only what bindPod sets, which kube writes without validation.
    if (subresource === "status" || subresource === "binding") return [];
    const capabilities = podCapabilities(env);
    if (subresource === "resize" && old !== undefined) return validateResize(obj, old, capabilities);
    const spec = specOf(obj);
    if (subresource === "ephemeralcontainers" && old !== undefined) {
      return validateEphemeralContainers(spec, specOf(old), capabilities);
    }
    const errs = validatePodSpec(spec, "spec", true, capabilities);
    if (old === undefined) errs.push(...validateCreate(spec));
    else errs.push(...validateSpecUpdate(spec, specOf(old)));
    return errs;
  },
  gracePeriodSeconds,
  returnDeletedObject: true,
};
