// The text of a field path in conflict messages and typed-object errors, as fieldpath.Path.String() writes
// it: `.spec.replicas`, `.spec.template.spec.containers[name="nginx"].image`, `.finalizers[="a"]`, `.args[0]`.
import { valueText } from "../typed/json-value.js";
import type { Path, PathElement } from "./path-element.js";

export function elementText(pe: PathElement): string {
  if ("field" in pe) return `.${pe.field}`;
  if ("key" in pe) return `[${pe.key.map((f) => `${f.name}=${valueText(f.value)}`).join(",")}]`;
  if ("value" in pe) return `[=${valueText(pe.value)}]`;
  return `[${pe.index}]`;
}

export function pathText(path: Path): string {
  return path.map(elementText).join("");
}
