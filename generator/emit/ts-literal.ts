// Prints plain data as a readable TypeScript literal, for generated tables.
import { propertyKey } from "./naming.js";

/** Source text placed as is: an imported binding rather than data. */
export class Code {
  constructor(readonly text: string) {}
}

/** Objects and arrays whose one-line form fits in this many characters stay on one line. */
const inlineWidth = 100;

function inline(value: unknown): string {
  if (value instanceof Code) return value.text;
  if (Array.isArray(value)) return `[${value.map(inline).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    return `{ ${entries.map(([k, v]) => `${propertyKey(k)}: ${inline(v)}`).join(", ")} }`;
  }
  return JSON.stringify(value);
}

/** `value` as TypeScript; `undefined` properties are left out (exactOptionalPropertyTypes). */
export function tsLiteral(value: unknown, indent = ""): string {
  const flat = inline(value);
  if (flat.length + indent.length <= inlineWidth || value instanceof Code) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((v) => `${inner}${tsLiteral(v, inner)},\n`).join("")}${indent}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    const lines = entries.map(([k, v]) => `${inner}${propertyKey(k)}: ${tsLiteral(v, inner)},\n`);
    return `{\n${lines.join("")}${indent}}`;
  }
  return flat;
}
