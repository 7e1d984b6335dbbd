// Nodes: the proxy subresource, which reaches the node's kubelet (or another port of the node) at its
// preferred address, as pkg/registry/core/node's ResourceLocation does.
import { lookup } from "node:dns/promises";
import { badRequest } from "../errors/status-error.js";
import type { ConnectHook, KindStrategy } from "./hook-request.js";
import { nodeConnection } from "./node-connection.js";
import { proxyTo } from "./node-proxy.js";
import { isGlobalUnicast, splitSchemeNamePort } from "./pod-connect.js";
import { nodes } from "./pod-related-kinds.js";

/** kube proxies only to hosts whose every address is global unicast. */
async function checkProxyable(host: string): Promise<void> {
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch (error) {
    throw badRequest(`lookup ${host}: ${(error as Error).message}`);
  }
  if (addresses.length === 0) throw badRequest("no addresses for hostname");
  if (!addresses.every((a) => isGlobalUnicast(a.address))) throw badRequest("address not allowed");
}

const proxy: ConnectHook = async (request) => {
  const id = request.name ?? "";
  const parsed = splitSchemeNamePort(id);
  if (parsed === undefined) throw badRequest(`invalid node request "${id}"`);
  const node = (await request.resources.get({ kind: nodes, name: parsed.name })).object;
  const kubelet = nodeConnection(node);
  await checkProxyable(kubelet.host);
  if (parsed.port === "" || parsed.port === String(kubelet.port)) return proxyTo(kubelet, request);
  const scheme = parsed.scheme === "" ? "http" : parsed.scheme;
  return proxyTo({ scheme, host: kubelet.host, port: Number(parsed.port) }, request);
};

export const strategy: KindStrategy = {
  connectHooks: { proxy },
};
