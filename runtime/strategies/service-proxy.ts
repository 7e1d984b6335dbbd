// services/proxy as kube-apiserver serves it (the service REST's ResourceLocation): the port a request names
// (by number or name), then a ready address of the service's Endpoints that is a pod of the namespace
// with that IP; without one the answer is 503.
import { badRequest, notFound, StatusError, serviceUnavailable } from "../errors/status-error.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import type { ConnectHook, HookRequest } from "./hook-request.js";
import { proxyTo } from "./node-proxy.js";
import { splitSchemeNamePort } from "./pod-connect.js";
import { endpoints, pods, services } from "./pod-related-kinds.js";

const servicesResource = { group: "", name: "services" };

async function isPodAddress(request: HookRequest, address: JsonObject): Promise<boolean> {
  const ref = asObject(address.targetRef);
  if (ref === undefined || ref.namespace !== request.namespace) return false;
  try {
    const pod = (await request.resources.get({ kind: pods, namespace: request.namespace, name: String(ref.name) }))
      .object;
    return listItems(asObject(pod.status)?.podIPs).some((ip) => asObject(ip)?.ip === address.ip);
  } catch (error) {
    if (error instanceof StatusError) return false;
    throw error;
  }
}

export const serviceProxy: ConnectHook = async (request) => {
  const id = request.name ?? "";
  const parsed = splitSchemeNamePort(id);
  if (parsed === undefined) throw badRequest(`invalid service request "${id}"`);
  let portName = parsed.port;
  if (/^-?\d+$/.test(portName)) {
    const service = (await request.resources.get({ kind: services, namespace: request.namespace, name: parsed.name }))
      .object;
    const port = listItems(asObject(service.spec)?.ports)
      .map((p) => asObject(p) ?? {})
      .find((p) => p.port === Number(portName));
    if (port === undefined) {
      throw serviceUnavailable(`no service port ${Number(portName)} found for service "${parsed.name}"`);
    }
    portName = String(port.name ?? "");
  }
  let found: JsonObject;
  try {
    found = (await request.resources.get({ kind: endpoints, namespace: request.namespace, name: parsed.name })).object;
  } catch (error) {
    // kube's endpoints getter reports a missing object with the services resource.
    if (error instanceof StatusError && error.code === 404) throw notFound(servicesResource, parsed.name);
    throw error;
  }
  const subsets = listItems(found.subsets).map((s) => asObject(s) ?? {});
  if (subsets.length === 0) throw serviceUnavailable(`no endpoints available for service "${parsed.name}"`);
  for (const subset of subsets) {
    const port = listItems(subset.ports)
      .map((p) => asObject(p) ?? {})
      .find((p) => String(p.name ?? "") === portName);
    if (port === undefined) continue;
    for (const address of listItems(subset.addresses).map((a) => asObject(a) ?? {})) {
      if (!(await isPodAddress(request, address))) continue;
      const scheme = parsed.scheme === "" ? "http" : parsed.scheme;
      return proxyTo({ scheme, host: String(address.ip), port: Number(port.port) }, request);
    }
  }
  throw serviceUnavailable(`no endpoints available for service "${id}"`);
};
