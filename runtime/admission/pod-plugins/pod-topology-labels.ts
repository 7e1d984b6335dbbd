// kube-apiserver's PodTopologyLabels (feature PodTopologyLabelsAdmission, beta and on in v1.36): a pod created
// with spec.nodeName, or a pods/binding to a Node, gets the node's `topology.kubernetes.io/zone` and
// `topology.kubernetes.io/region` labels (on the Binding, which the binding copies onto the pod). A node that
// does not exist gives no labels. Any other subresource is left alone.
import type { JsonObject } from "../../object/json-object.js";
import { isJsonObject } from "../../object/json-object.js";
import { builtinKind } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../admission.js";
import { readObject } from "./cached-read.js";
import { stringField } from "./pod-write.js";

export const podTopologyLabelsPluginName = "PodTopologyLabels";

const nodes = builtinKind("", "v1", "nodes");

const topologyLabels: readonly string[] = ["topology.kubernetes.io/zone", "topology.kubernetes.io/region"];

/** Where the node's name is and whose metadata gets the labels, for the requests the plugin handles. */
function placement(a: AdmissionAttributes): { nodeName: string; labelled: JsonObject } | undefined {
  if (a.operation !== "CREATE" || a.kind.group !== "" || a.kind.resource.plural !== "pods") return undefined;
  if (!isJsonObject(a.object)) return undefined;
  const subresource = a.subresource ?? "";
  if (subresource === "") {
    const spec = isJsonObject(a.object.spec) ? a.object.spec : {};
    return { nodeName: stringField(spec, "nodeName"), labelled: a.object };
  }
  if (subresource !== "binding") return undefined;
  const target = isJsonObject(a.object.target) ? a.object.target : {};
  if (stringField(target, "kind") !== "Node") return undefined;
  return { nodeName: stringField(target, "name"), labelled: a.object };
}

export function podTopologyLabels(api: ResourceApi): AdmissionPlugin {
  return {
    name: podTopologyLabelsPluginName,
    async mutate(a) {
      const found = placement(a);
      if (found === undefined || found.nodeName === "") return;
      const node = await readObject(api, nodes, found.nodeName);
      const nodeLabels = isJsonObject(node?.metadata) && isJsonObject(node.metadata.labels) ? node.metadata.labels : {};
      const copied = topologyLabels.filter((key) => typeof nodeLabels[key] === "string");
      if (copied.length === 0) return;
      if (!isJsonObject(found.labelled.metadata)) found.labelled.metadata = {};
      const meta = found.labelled.metadata as JsonObject;
      if (!isJsonObject(meta.labels)) meta.labels = {};
      const labels = meta.labels as JsonObject;
      for (const key of copied) labels[key] = nodeLabels[key] as string;
    },
  };
}
