// kube-apiserver's `--service-cluster-ip-range` and `--service-node-port-range`, read and checked with its
// texts: one range or two of different families (the first is primary: the kubernetes Service's address
// and the default family), and a node port range `low-high`, `low+offset` or one port.
import { type IPRange, parseCIDR } from "./ip-range.js";

export interface PortRange {
  base: number;
  size: number;
}

export interface ServiceNetworkConfig {
  /** The primary range first, then the secondary one of the other family, if any. */
  ranges: readonly IPRange[];
  nodePorts: PortRange;
}

/** kube's DefaultServiceIPCIDR. */
export const defaultServiceClusterIPRange = "10.0.0.0/24";
/** kube's DefaultServiceNodePortRange. */
export const defaultServiceNodePortRange = "30000-32767";

export function formatPortRange(range: PortRange): string {
  return `${range.base}-${range.base + range.size - 1}`;
}

/** Go's strconv.Atoi, with its error text. */
function atoi(text: string): number {
  if (!/^[+-]?\d+$/.test(text)) throw new Error(`strconv.Atoi: parsing "${text}": invalid syntax`);
  return Number(text);
}

/** apimachinery's PortRange.Set; the error is pflag's, naming the flag. */
export function parsePortRange(value: string): PortRange {
  try {
    const text = value.trim();
    const hyphen = text.indexOf("-");
    const plus = text.indexOf("+");
    let low: number;
    let high: number;
    if (hyphen < 0 && plus < 0) {
      low = atoi(text);
      high = low;
    } else if (hyphen >= 0 && plus < 0) {
      low = atoi(text.slice(0, hyphen));
      high = atoi(text.slice(hyphen + 1));
    } else if (plus >= 0 && hyphen < 0) {
      low = atoi(text.slice(0, plus));
      high = low + atoi(text.slice(plus + 1));
    } else {
      throw new Error(`unable to parse port range: ${text}`);
    }
    if (low > 65535 || high > 65535) throw new Error(`the port range cannot be greater than 65535: ${text}`);
    if (high < low) throw new Error(`end port cannot be less than start port: ${text}`);
    return { base: low, size: 1 + high - low };
  } catch (error) {
    throw new Error(`invalid argument "${value}" for "--service-node-port-range" flag: ${(error as Error).message}`);
  }
}

/** kube-apiserver's parsing (completion.go) and validation (validateClusterIPFlags) of the service ranges. */
export function parseServiceClusterIPRange(value: string): IPRange[] {
  const entries = value.split(",");
  const primary = parseCIDR(entries[0] ?? "");
  if (primary === undefined) throw new Error("service-cluster-ip-range[0] is not a valid cidr");
  const ranges = [primary];
  if (entries.length > 1) {
    const secondary = parseCIDR(entries[1] as string);
    if (secondary === undefined) throw new Error("service-cluster-ip-range[1] is not an ip net");
    ranges.push(secondary);
  }
  const errors: string[] = [];
  if (entries.length > 2) errors.push("--service-cluster-ip-range must not contain more than two entries");
  if (ranges[1] !== undefined && ranges[1].family === primary.family) {
    errors.push("--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family");
  }
  // The IPAddress allocator of IPv6 ranges needs a prefix of at least 64 bits (NewIPAllocator).
  for (const range of ranges) {
    if (range.family === "IPv6" && range.prefixLength < 64) {
      errors.push(`shortest allowed prefix length for service CIDR is 64, got ${range.prefixLength}`);
    }
  }
  if (errors.length > 0) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(", ")}]`);
  return ranges;
}

export function serviceNetworkConfig(options: {
  clusterIPRange?: string;
  nodePortRange?: string;
}): ServiceNetworkConfig {
  return {
    ranges: parseServiceClusterIPRange(options.clusterIPRange ?? defaultServiceClusterIPRange),
    nodePorts: parsePortRange(options.nodePortRange ?? defaultServiceNodePortRange),
  };
}
