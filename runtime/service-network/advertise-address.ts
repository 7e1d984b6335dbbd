// The address published in the `default/kubernetes` Endpoints (`--advertise-address`). Unset, kube takes the
// bind address when it is a concrete address other than loopback, else the address of the host's default
// interface; kapi takes the first non-internal IPv4 address of the host's interfaces for the latter, and
// 127.0.0.1 on a host with none.
import { networkInterfaces } from "node:os";
import { canonicalIP, familyOf } from "./ip-range.js";

function unspecifiedOrLoopback(ip: string): boolean {
  return ip === "0.0.0.0" || ip === "::" || ip === "::1" || ip.startsWith("127.");
}

export function defaultAdvertiseAddress(bindAddress: string): string {
  if (familyOf(bindAddress) !== undefined && !unspecifiedOrLoopback(bindAddress)) return bindAddress;
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) {
      if (address.family === "IPv4" && !address.internal && !address.address.startsWith("169.254.")) {
        return address.address;
      }
    }
  }
  return "127.0.0.1";
}

/** pflag's IP flag: the address as Go prints it, or its error. */
export function parseAdvertiseAddress(value: string): string {
  const ip = canonicalIP(value);
  if (ip === undefined) {
    throw new Error(`invalid argument "${value}" for "--advertise-address" flag: failed to parse IP: "${value}"`);
  }
  return ip;
}
