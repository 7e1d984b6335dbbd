// resource.Quantity strings ("500m", "1.5Gi", "2e3") read as numbers, for the checks that compare
// quantities: requests against limits, a pod's QoS class.

const quantity = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$/;

const suffixes: Readonly<Record<string, number>> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/** The value of a quantity (a string, or a number as JSON may carry it); undefined when it is not one. */
export function quantityValue(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value !== "string") return undefined;
  const m = quantity.exec(value);
  if (m === null) return undefined;
  const [, number, suffix] = m;
  if (suffix === undefined) return Number(number);
  if (suffix.startsWith("e") || suffix.startsWith("E")) return Number(`${number}${suffix}`);
  return Number(number) * (suffixes[suffix] ?? 1);
}
