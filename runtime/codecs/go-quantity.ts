// Whether kube's resource.Quantity decoder accepts a value, and its error when it does not: decoding
// fails on a bad quantity (`cpu: 1 core`), so kube answers those with a 400 before any validation. This
// follows ParseQuantity's steps far enough to tell its errors apart; the value itself is not needed.

const formatWrong = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const suffixWrong = "unable to parse quantity's suffix";

const suffixes = new Set(["", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]);

function digitsFrom(s: string, from: number): number {
  let i = from;
  while (i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39) i++;
  return i;
}

function suffixOk(suffix: string): boolean {
  if (suffixes.has(suffix)) return true;
  return (suffix[0] === "e" || suffix[0] === "E") && /^[+-]?\d+$/.test(suffix.slice(1));
}

/**
 * The error decoding a JSON value into a Quantity gives, if any: the decoder parses a string's content or
 * a number's literal, and no other JSON value can parse.
 */
export function quantityError(value: unknown): string | undefined {
  if (typeof value !== "string" && typeof value !== "number") return formatWrong;
  const s = String(value).trim();
  if (s === "") return formatWrong;
  let pos = digitsFrom(s, s[0] === "+" || s[0] === "-" ? 1 : 0);
  if (s[pos] === ".") pos = digitsFrom(s, pos + 1);
  const suffixStart = pos;
  while (pos < s.length && "eEinumkKMGTP".includes(s[pos] as string)) pos++;
  if (s[pos] === "+" || s[pos] === "-") pos++;
  if (digitsFrom(s, pos) !== s.length) return formatWrong;
  return suffixOk(s.slice(suffixStart)) ? undefined : suffixWrong;
}
