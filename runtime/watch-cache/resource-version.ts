// resourceVersion strings as clients send them: unset, "0" or a revision. They are opaque to clients but
// are kapi's revisions, so parsing follows kube's APIObjectVersioner (strconv.ParseUint, base 10).
import { invalidResourceVersion } from "./cache-errors.js";

const maxUint64 = 18446744073709551615n;

/** undefined for unset or empty, 0 for "0", otherwise the revision; throws 400 when not a uint64. */
export function parseResourceVersion(value: string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  if (!/^[0-9]+$/.test(value)) throw invalidResourceVersion(value, "invalid syntax");
  if (BigInt(value) > maxUint64) throw invalidResourceVersion(value, "value out of range");
  return Number(value);
}
