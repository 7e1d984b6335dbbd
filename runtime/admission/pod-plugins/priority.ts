// kube-apiserver's Priority admission: a created pod gets the priority and preemption policy of its
// PriorityClass (or of the global default class, or 0 and PreemptLowerPriority when there is none); an
// update keeps what the pod had when the new object leaves them out; a PriorityClass may be the global
// default only while no other class is.
import { priorityClasses } from "../../controllers/apiserver-kinds.js";
import { StatusError } from "../../errors/status-error.js";
import type { JsonObject } from "../../object/json-object.js";
import { isJsonObject } from "../../object/json-object.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";
import { readObject } from "./cached-read.js";
import { podOf, specOf } from "./pod-write.js";

export const priorityPluginName = "Priority";

/** kube's DefaultPriorityWhenNoDefaultClassExists. */
const defaultPriority = 0;
const defaultPreemptionPolicy = "PreemptLowerPriority";

interface ResolvedPriority {
  className: string;
  value: number;
  preemptionPolicy: string | undefined;
}

function isPriorityClassWrite(a: AdmissionAttributes): boolean {
  return (
    a.kind.group === "scheduling.k8s.io" &&
    a.kind.resource.plural === "priorityclasses" &&
    (a.subresource === undefined || a.subresource === "")
  );
}

function classValue(pc: JsonObject): number {
  return typeof pc.value === "number" ? pc.value : 0;
}

function classPolicy(pc: JsonObject): string | undefined {
  return typeof pc.preemptionPolicy === "string" ? pc.preemptionPolicy : undefined;
}

/** A Go pointer field that is nil: not sent, or sent as null. */
function absent(value: unknown): boolean {
  return value === undefined || value === null;
}

function className(pc: JsonObject): string {
  const meta = isJsonObject(pc.metadata) ? pc.metadata : {};
  return typeof meta.name === "string" ? meta.name : "";
}

export function priority(api: ResourceApi): AdmissionPlugin {
  /** The global default class with the lowest value, as kube picks among several. */
  async function defaultClass(): Promise<JsonObject | undefined> {
    let found: JsonObject | undefined;
    for (const { object } of (await api.list({ kind: priorityClasses }, { resourceVersion: "0" })).items) {
      if (object.globalDefault !== true) continue;
      if (found === undefined || classValue(found) > classValue(object)) found = object;
    }
    return found;
  }

  async function resolve(a: AdmissionAttributes, name: string): Promise<ResolvedPriority> {
    if (name === "") {
      const pc = await defaultClass();
      if (pc === undefined) {
        return { className: "", value: defaultPriority, preemptionPolicy: defaultPreemptionPolicy };
      }
      return { className: className(pc), value: classValue(pc), preemptionPolicy: classPolicy(pc) };
    }
    const pc = await readObject(api, priorityClasses, name);
    if (pc === undefined) throw admissionForbidden(a, `no PriorityClass with name ${name} was found`);
    return { className: name, value: classValue(pc), preemptionPolicy: classPolicy(pc) };
  }

  async function admitPod(a: AdmissionAttributes, pod: JsonObject): Promise<void> {
    const spec = specOf(pod);
    if (a.operation === "UPDATE") {
      const old = isJsonObject(a.oldObject?.spec) ? a.oldObject.spec : {};
      if (absent(spec.priority) && !absent(old.priority)) spec.priority = old.priority;
      if (absent(spec.preemptionPolicy) && !absent(old.preemptionPolicy)) {
        spec.preemptionPolicy = old.preemptionPolicy;
      }
      return;
    }
    const requested = typeof spec.priorityClassName === "string" ? spec.priorityClassName : "";
    const resolved = await resolve(a, requested);
    if (resolved.className === "") delete spec.priorityClassName;
    else spec.priorityClassName = resolved.className;
    if (typeof spec.priority === "number" && spec.priority !== resolved.value) {
      throw admissionForbidden(
        a,
        `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${resolved.value} from the given PriorityClass name`,
      );
    }
    spec.priority = resolved.value;
    if (resolved.preemptionPolicy !== undefined) {
      if (typeof spec.preemptionPolicy === "string" && spec.preemptionPolicy !== resolved.preemptionPolicy) {
        throw admissionForbidden(
          a,
          `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${resolved.preemptionPolicy} from the given PriorityClass name`,
        );
      }
      spec.preemptionPolicy = resolved.preemptionPolicy;
    }
  }

  async function validatePriorityClass(a: AdmissionAttributes): Promise<void> {
    const pc = a.object;
    if (pc === undefined || pc.globalDefault !== true) return;
    let current: JsonObject | undefined;
    try {
      current = await defaultClass();
    } catch (error) {
      // kube returns this as a plain error: a 500 without a reason.
      throw new StatusError(500, undefined, `failed to get default priority class: ${(error as Error).message}`);
    }
    if (current === undefined) return;
    if (a.operation === "CREATE" || (a.operation === "UPDATE" && className(current) !== className(pc))) {
      throw admissionForbidden(
        a,
        `PriorityClass ${className(current)} is already marked as default. Only one default can exist`,
      );
    }
  }

  return {
    name: priorityPluginName,
    async mutate(a) {
      if (a.operation !== "CREATE" && a.operation !== "UPDATE") return;
      const pod = podOf(a);
      if (pod !== undefined) await admitPod(a, pod);
    },
    async validate(a) {
      if ((a.operation === "CREATE" || a.operation === "UPDATE") && isPriorityClassWrite(a)) {
        await validatePriorityClass(a);
      }
    },
  };
}
