// The connect subresources of pods as kube-apiserver serves them (pkg/registry/core/pod/rest and the pod
// strategy's *Location functions): log, exec, attach and portforward resolve the pod's node and its kubelet's
// address, proxy resolves the pod's IP. Without a kubelet they fail with kube's texts; a pod with no node has
// an empty log. A reachable pod or kubelet is proxied to for proxy and log; upgraded streams are not tunnelled.
import { isIP } from "node:net";
import { type FieldError, forbidden, invalid as invalidField } from "../errors/field-error.js";
import { badRequest, invalid, notFound, StatusError } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import type { ConnectAnswer, ConnectHook, ConnectRequest, HookRequest } from "./hook-request.js";
import { dialError, joinHostPort, type NodeConnection, nodeConnection, unknownError } from "./node-connection.js";
import { proxyTo } from "./node-proxy.js";
import { nodes, pods } from "./pod-related-kinds.js";

const podResource = { group: "", name: "pods" };

/** `name`, `name:port` or `scheme:name:port` (utilnet.SplitSchemeNamePort); undefined when invalid. */
export function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(":");
  let found: { scheme: string; name: string; port: string };
  if (parts.length === 1) found = { scheme: "", name: parts[0] ?? "", port: "" };
  else if (parts.length === 2) found = { scheme: "", name: parts[0] ?? "", port: parts[1] ?? "" };
  else if (parts.length === 3) found = { scheme: parts[0] ?? "", name: parts[1] ?? "", port: parts[2] ?? "" };
  else return undefined;
  return found.name !== "" && ["", "http", "https"].includes(found.scheme) ? found : undefined;
}

/** Go's IP.IsGlobalUnicast: neither unspecified, loopback, link-local, multicast nor broadcast. */
export function isGlobalUnicast(address: string): boolean {
  const family = isIP(address);
  if (family === 4) {
    const [a, b] = address.split(".").map(Number) as [number, number];
    if (address === "255.255.255.255" || a === 0 || a === 127 || a >= 224) return false;
    return !(a === 169 && b === 254);
  }
  if (family === 6) {
    const lower = address.toLowerCase();
    if (lower === "::" || lower === "::1" || lower.startsWith("ff")) return false;
    return !/^fe[89ab]/.test(lower);
  }
  return false;
}

async function getPod(request: HookRequest, name: string): Promise<KubeObject> {
  return (await request.resources.get({ kind: pods, namespace: request.namespace, name })).object;
}

function specOf(pod: KubeObject): JsonObject {
  return asObject(pod.spec) ?? {};
}

function containerNames(pod: KubeObject, lists: readonly string[]): string[] {
  const spec = specOf(pod);
  return lists.flatMap((list) => listItems(spec[list]).map((c) => String(asObject(c)?.name ?? "")));
}

/** The container a request names, or the pod's only one (kube's validateContainer). */
function containerOf(pod: KubeObject, requested: string): string {
  const name = String(asObject(pod.metadata)?.name ?? "");
  if (requested !== "") {
    const all = containerNames(pod, ["initContainers", "containers", "ephemeralContainers"]);
    if (!all.includes(requested)) throw badRequest(`container ${requested} is not valid for pod ${name}`);
    return requested;
  }
  const containers = containerNames(pod, ["containers"]);
  if (containers.length === 1) return containers[0] ?? "";
  if (containers.length === 0) throw badRequest(`a container name must be specified for pod ${name}`);
  const all = containerNames(pod, ["initContainers", "containers", "ephemeralContainers"]);
  throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${all.join(" ")}]`);
}

/** The kubelet of the pod's node; kube reports a missing node with the pods resource. */
async function kubeletOf(request: HookRequest, nodeName: string): Promise<NodeConnection> {
  try {
    return nodeConnection((await request.resources.get({ kind: nodes, name: nodeName })).object);
  } catch (error) {
    if (error instanceof StatusError && error.code === 404) throw notFound(podResource, nodeName);
    throw error;
  }
}

function nodeNameOf(pod: KubeObject): string {
  const nodeName = specOf(pod).nodeName;
  return typeof nodeName === "string" ? nodeName : "";
}

function integerParam(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  return value === null || value === "" ? undefined : Number(value);
}

function boolParam(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  return value === "true" || value === "1";
}

/** ValidatePodLogOptions with the PodLogsQuerySplitStreams gate off, as in v1.36. */
function logOptionErrors(query: URLSearchParams): FieldError[] {
  const errs: FieldError[] = [];
  const tailLines = integerParam(query, "tailLines");
  if (tailLines !== undefined && tailLines < 0) {
    errs.push(invalidField("tailLines", tailLines, "must be greater than or equal to 0"));
  }
  const limitBytes = integerParam(query, "limitBytes");
  if (limitBytes !== undefined && limitBytes < 1)
    errs.push(invalidField("limitBytes", limitBytes, "must be greater than 0"));
  const sinceSeconds = integerParam(query, "sinceSeconds");
  if (sinceSeconds !== undefined && query.get("sinceTime")) {
    errs.push(forbidden("[]", "at most one of `sinceTime` or `sinceSeconds` may be specified"));
  } else if (sinceSeconds !== undefined && sinceSeconds < 1) {
    errs.push(invalidField("sinceSeconds", sinceSeconds, "must be greater than 0"));
  }
  if (query.has("stream")) errs.push(forbidden("stream", "may not be specified"));
  return errs;
}

/** The kubelet's containerLogs query: the options set, keys sorted as Go's url.Values encodes them. */
function kubeletLogQuery(query: URLSearchParams): URLSearchParams {
  const params = new URLSearchParams();
  for (const flag of ["follow", "previous", "timestamps"]) if (boolParam(query, flag)) params.set(flag, "true");
  for (const value of ["sinceSeconds", "sinceTime", "tailLines", "limitBytes"]) {
    const given = query.get(value);
    if (given !== null && given !== "") params.set(value, given);
  }
  params.sort();
  return params;
}

const log: ConnectHook = async (request) => {
  const name = request.name ?? "";
  const errs = logOptionErrors(request.query);
  if (errs.length > 0) throw invalid({ group: "", name: "PodLogOptions" }, name, errs);
  const pod = await getPod(request, name);
  const container = containerOf(pod, request.query.get("container") ?? "");
  const nodeName = nodeNameOf(pod);
  // A pod no node runs has no log yet: an empty answer.
  if (nodeName === "") return { code: 204 };
  const kubelet = await kubeletOf(request, nodeName);
  const query = kubeletLogQuery(request.query);
  const path = `containerLogs/${request.namespace ?? ""}/${name}/${container}`;
  const encoded = query.toString();
  const url = `${kubelet.scheme}://${joinHostPort(kubelet.host, kubelet.port)}/${path}${encoded === "" ? "" : `?${encoded}`}`;
  const failed = await dialError(kubelet.host, kubelet.port);
  if (failed !== undefined) throw unknownError(`Get "${url}": ${failed}`);
  return proxyTo(kubelet, { ...request, method: "GET", headers: {}, query, path });
};

function isUpgrade(request: ConnectRequest): boolean {
  const connection = request.headers.connection;
  const values = Array.isArray(connection) ? connection : [connection ?? ""];
  return values.some((v) =>
    v
      .toLowerCase()
      .split(",")
      .some((token) => token.trim() === "upgrade"),
  );
}

/** exec, attach and portforward: kube's stream locations, then its upgrade-aware handler. */
function streamHook(checksContainer: boolean): ConnectHook {
  return async (request) => {
    const name = request.name ?? "";
    const pod = await getPod(request, name);
    if (checksContainer) containerOf(pod, request.query.get("container") ?? "");
    const nodeName = nodeNameOf(pod);
    if (nodeName === "") throw badRequest(`pod ${name} does not have a host assigned`);
    const kubelet = await kubeletOf(request, nodeName);
    if (!isUpgrade(request)) throw badRequest("Upgrade request required");
    const failed = await dialError(kubelet.host, kubelet.port);
    throw unknownError(`error dialing backend: ${failed ?? "kapi does not tunnel upgraded streams to kubelets"}`);
  };
}

/** pods/proxy: the pod's first IP, at the requested port or the first container port it declares. */
const proxy: ConnectHook = async (request): Promise<ConnectAnswer> => {
  const id = request.name ?? "";
  const parsed = splitSchemeNamePort(id);
  if (parsed === undefined) throw badRequest(`invalid pod request "${id}"`);
  const pod = await getPod(request, parsed.name);
  let port = parsed.port;
  if (port === "") {
    const declared = listItems(specOf(pod).containers)
      .map((c) => listItems(asObject(c)?.ports))
      .find((ports) => ports.length > 0);
    const first = asObject(declared?.[0])?.containerPort;
    if (typeof first === "number") port = String(first);
  }
  const ip = String(asObject(listItems(asObject(pod.status)?.podIPs)[0])?.ip ?? "");
  if (!isGlobalUnicast(ip)) throw badRequest("address not allowed");
  const scheme = parsed.scheme === "" ? "http" : parsed.scheme;
  const defaultPort = scheme === "https" ? 443 : 80;
  return proxyTo({ scheme, host: ip, port: port === "" ? defaultPort : Number(port) }, request);
};

export const podConnectHooks: Readonly<Record<string, ConnectHook>> = {
  log,
  exec: streamHook(true),
  attach: streamHook(true),
  portforward: streamHook(false),
  proxy,
};
