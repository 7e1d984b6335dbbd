// How Go's encoding/json names a JSON value in its "cannot unmarshal <kind> into Go struct field …"
// errors, which configuration-file loaders repeat word for word.

/** `array`, `null`, `object`, `number 5`, `string`, `boolean`. */
export function goJsonValueKind(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (value === null) return "null";
  if (typeof value === "object") return "object";
  if (typeof value === "number") return `number ${value}`;
  return typeof value;
}
