// The client addresses an audit event lists, as kube's utilnet.SourceIPs: every X-Forwarded-For entry that
// parses as an IP, then X-Real-Ip unless the chain has it, then the connection's remote address unless it is
// the chain's last entry.
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";

function header(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? "";
}

export function sourceIPs(req: IncomingMessage): string[] {
  let remote = req.socket?.remoteAddress ?? "";
  if (remote.startsWith("::ffff:")) remote = remote.slice(7);
  // Most requests come straight from their client: the peer alone.
  if (req.headers["x-forwarded-for"] === undefined && req.headers["x-real-ip"] === undefined) {
    return isIP(remote) === 0 ? [] : [remote];
  }
  const ips: string[] = [];
  for (const part of header(req, "x-forwarded-for").split(",")) {
    const ip = part.trim();
    if (isIP(ip) !== 0) ips.push(ip);
  }
  const realIp = header(req, "x-real-ip").trim();
  if (isIP(realIp) !== 0 && !ips.includes(realIp)) ips.push(realIp);
  if (isIP(remote) !== 0 && ips.at(-1) !== remote) ips.push(remote);
  return ips;
}
