// Where kube-apiserver reaches a node's kubelet (its NodeConnectionInfoGetter): the first address of the
// preferred types (--kubelet-preferred-address-types' default order) and the port the kubelet reported, and
// how a dial to it fails, worded as Go's net package words it since clients show these texts.
import { connect } from "node:net";
import { StatusError } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { asObject, listItems } from "../validation/walk.js";

const preferredAddressTypes = ["Hostname", "InternalDNS", "InternalIP", "ExternalDNS", "ExternalIP"];
const defaultKubeletPort = 10250;
const dialTimeoutMs = 30_000;

export interface NodeConnection {
  scheme: "https";
  host: string;
  port: number;
}

/** `host:port`, with an IPv6 host in brackets (Go's net.JoinHostPort). */
export function joinHostPort(host: string, port: number | string): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

/** An error no kube layer gave a reason: 500 with the message alone. */
export function unknownError(message: string): StatusError {
  return new StatusError(500, undefined, message);
}

export function nodeConnection(node: KubeObject): NodeConnection {
  const status = asObject(node.status) ?? {};
  const addresses = listItems(status.addresses).map((a) => asObject(a) ?? {});
  for (const type of preferredAddressTypes) {
    const found = addresses.find((a) => a.type === type);
    if (found !== undefined) {
      const reported = asObject(asObject(status.daemonEndpoints)?.kubeletEndpoint)?.Port;
      const port = typeof reported === "number" && reported > 0 ? reported : defaultKubeletPort;
      return { scheme: "https", host: String(found.address ?? ""), port };
    }
  }
  const known = addresses.map((a) => `{${String(a.type ?? "")} ${String(a.address ?? "")}}`).join(" ");
  throw unknownError(`no preferred addresses found; known addresses: [${known}]`);
}

const dialErrors: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connect: connection refused",
  EHOSTUNREACH: "connect: no route to host",
  ENETUNREACH: "connect: network is unreachable",
  ETIMEDOUT: "i/o timeout",
};

/** Opens a TCP connection and closes it: undefined when something listens, else Go's `dial tcp …` text. */
export function dialError(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: dialTimeoutMs });
    const prefix = `dial tcp ${joinHostPort(host, port)}: `;
    socket.once("connect", () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once("timeout", () => {
      socket.destroy();
      resolve(`${prefix}i/o timeout`);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => {
      resolve(prefix + (dialErrors[error.code ?? ""] ?? error.message));
    });
  });
}
