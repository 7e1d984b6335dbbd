// kube-apiserver's PodResizeValidator (InPlacePodVerticalScaling, GA in v1.36): a pods/resize update of a pod
// bound to a node, that moves the pod's generation on, is refused (403) when the node does not exist, is not
// a Linux node (`kubernetes.io/os` set to anything else; cause UnsupportedPlatform), or has less allocatable
// cpu or memory than the pod would request (cause NodeCapacity).

import type { JsonObject } from "../../object/json-object.js";
import { isJsonObject } from "../../object/json-object.js";
import { podResourceTotals } from "../../quota/pod-resource-totals.js";
import { type ResourceList, readResourceList } from "../../quota/resource-list.js";
import { builtinKind } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import {
  compareQuantity,
  milliValue,
  type Quantity,
  wholeValue,
  zeroQuantity,
} from "../../validation/quantity-arithmetic.js";
import { objectField } from "../../validation/walk.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";
import { readObject } from "./cached-read.js";
import { stringField } from "./pod-write.js";

export const podResizeValidatorPluginName = "PodResizeValidator";

const nodes = builtinKind("", "v1", "nodes");

function refusal(a: AdmissionAttributes, why: string, cause: string) {
  const error = admissionForbidden(a, why);
  const details = error.status.details ?? {};
  details.causes = [...(details.causes ?? []), { reason: cause }];
  error.status.details = details;
  return error;
}

function capacityShortfall(spec: JsonObject, node: JsonObject): string | undefined {
  const allocatable = readResourceList(objectField(node.status, "allocatable"));
  const requests = podResourceTotals(spec, "requests");
  const amount = (list: ResourceList, name: string): Quantity => list.get(name) ?? zeroQuantity;
  const shortfalls: string[] = [];
  const cpu = amount(requests, "cpu");
  const cpuAllocatable = amount(allocatable, "cpu");
  if (compareQuantity(cpu, cpuAllocatable) > 0) {
    shortfalls.push(`cpu, requested: ${milliValue(cpu)}, allocatable: ${milliValue(cpuAllocatable)}`);
  }
  const memory = amount(requests, "memory");
  const memoryAllocatable = amount(allocatable, "memory");
  if (compareQuantity(memory, memoryAllocatable) > 0) {
    shortfalls.push(`memory, requested: ${wholeValue(memory)}, allocatable: ${wholeValue(memoryAllocatable)}`);
  }
  if (shortfalls.length === 0) return undefined;
  return `node didn't have enough allocatable resources: ${shortfalls.join("; ")}`;
}

export function podResizeValidator(api: ResourceApi): AdmissionPlugin {
  return {
    name: podResizeValidatorPluginName,
    async validate(a) {
      if (a.operation !== "UPDATE" || a.subresource !== "resize") return;
      if (a.kind.group !== "" || a.kind.resource.plural !== "pods") return;
      if (!isJsonObject(a.object)) return;
      const spec = objectField(a.object, "spec");
      const nodeName = stringField(spec, "nodeName");
      if (nodeName === "") return;
      const generation = (o: unknown) => objectField(o, "metadata").generation ?? 0;
      if (generation(a.oldObject) === generation(a.object)) return;
      const node = await readObject(api, nodes, nodeName);
      if (node === undefined) throw admissionForbidden(a, `node "${nodeName}" not found`);
      const os = objectField(node.metadata, "labels")["kubernetes.io/os"];
      if (typeof os === "string" && os !== "linux") {
        throw refusal(
          a,
          `pod resize is only supported on linux nodes, node "${nodeName}" is "${os}"`,
          "UnsupportedPlatform",
        );
      }
      const shortfall = capacityShortfall(spec, node);
      if (shortfall !== undefined) throw refusal(a, shortfall, "NodeCapacity");
    },
  };
}
