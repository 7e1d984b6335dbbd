// Services and what routes to them: endpoints, endpoint slices, ingresses and ingress classes, network policies.
import type { JsonObject } from "../object/json-object.js";
import { at, formatLabelSelector, formatLabels, int, list, obj, objects, str } from "./fields.js";
import type { PrinterCells } from "./printer-cell.js";

/** Go's sets.String List(): unique and sorted. */
function sortedUnique(values: string[]): string[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function loadBalancerAddresses(status: unknown): string {
  const addresses = objects(at(status, "loadBalancer", "ingress")).map((i) => str(i.ip) || str(i.hostname));
  return sortedUnique(addresses.filter((a) => a !== "")).join(",");
}

function externalIp(svc: JsonObject): string {
  const externalIps = list(at(svc, "spec", "externalIPs")).map(str);
  switch (at(svc, "spec", "type")) {
    case "ClusterIP":
    case "NodePort":
      return externalIps.length > 0 ? externalIps.join(",") : "<none>";
    case "LoadBalancer": {
      const lb = loadBalancerAddresses(svc.status);
      if (externalIps.length > 0) return [...(lb === "" ? [] : lb.split(",")), ...externalIps].join(",");
      return lb !== "" ? lb : "<pending>";
    }
    case "ExternalName":
      return str(at(svc, "spec", "externalName"));
    default:
      return "<unknown>";
  }
}

function ports(svc: JsonObject): string {
  const text = objects(at(svc, "spec", "ports"))
    .map((p) => {
      const nodePort = int(p.nodePort);
      return nodePort > 0 ? `${int(p.port)}:${nodePort}/${str(p.protocol)}` : `${int(p.port)}/${str(p.protocol)}`;
    })
    .join(",");
  return text === "" ? "<none>" : text;
}

/** Go's net.JoinHostPort: IPv6 hosts in brackets. */
function joinHostPort(host: string, port: number): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

function endpoints(ep: JsonObject): string {
  const subsets = objects(ep.subsets);
  if (subsets.length === 0) return "<none>";
  const max = 3;
  const shown: string[] = [];
  let more = false;
  let count = 0;
  for (const subset of subsets) {
    const addresses = objects(subset.addresses);
    const subsetPorts = objects(subset.ports);
    const entries =
      subsetPorts.length === 0
        ? [addresses.map((a) => str(a.ip))]
        : subsetPorts.map((p) => addresses.map((a) => joinHostPort(str(a.ip), int(p.port))));
    for (const group of entries) {
      count += group.length;
      for (const entry of group) {
        if (shown.length === max) {
          more = true;
          break;
        }
        shown.push(entry);
      }
    }
  }
  const text = shown.join(",");
  return more ? `${text} + ${count - max} more...` : text;
}

/** listWithMoreString over at most three entries. */
function firstThree(values: string[]): string {
  const shown = values.slice(0, 3);
  if (values.length > 3) return `${shown.join(",")} + ${values.length - 3} more...`;
  return shown.length === 0 ? "<unset>" : shown.join(",");
}

function slicePorts(slice: JsonObject): string {
  return firstThree(
    objects(slice.ports).map((p) =>
      typeof p.port === "number" ? String(Math.trunc(p.port)) : typeof p.name === "string" ? p.name : "*",
    ),
  );
}

function sliceEndpoints(slice: JsonObject): string {
  return firstThree(objects(slice.endpoints).flatMap((e) => list(e.addresses).map(str)));
}

function ingressHosts(ing: JsonObject): string {
  const rules = objects(at(ing, "spec", "rules"));
  const max = 3;
  const shown: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (shown.length === max) more = true;
    if (!more && str(rule.host) !== "") shown.push(str(rule.host));
  }
  if (shown.length === 0) return "*";
  return more ? `${shown.join(",")} + ${rules.length - max} more...` : shown.join(",");
}

function ingressClassName(ic: JsonObject): string {
  const name = str(at(ic, "metadata", "name"));
  const isDefault = obj(at(ic, "metadata", "annotations"))["ingressclass.kubernetes.io/is-default-class"];
  return isDefault === "true" ? `${name} (default)` : name;
}

function ingressClassParameters(ic: JsonObject): string {
  const p = at(ic, "spec", "parameters");
  if (p === undefined) return "<none>";
  const ref = obj(p);
  const kind = typeof ref.apiGroup === "string" ? `${str(ref.kind)}.${ref.apiGroup}` : str(ref.kind);
  return `${kind}/${str(ref.name)}`;
}

export const cells = {
  type: (svc) => str(at(svc, "spec", "type")),
  clusterIp: (svc) => str(list(at(svc, "spec", "clusterIPs"))[0]) || "<none>",
  externalIp,
  ports,
  selector: (svc) => formatLabels(at(svc, "spec", "selector")),
  endpoints,
  sliceAddressType: (s) => str(s.addressType),
  slicePorts,
  sliceEndpoints,
  ingressClass: (ing) => str(at(ing, "spec", "ingressClassName")) || "<none>",
  ingressHosts,
  ingressAddress: (ing) => loadBalancerAddresses(ing.status),
  ingressPorts: (ing) => (list(at(ing, "spec", "tls")).length > 0 ? "80, 443" : "80"),
  ingressClassName,
  ingressClassController: (ic) => str(at(ic, "spec", "controller")),
  ingressClassParameters,
  podSelector: (np) => formatLabelSelector(at(np, "spec", "podSelector")),
} satisfies PrinterCells;
