// Naming shared by emitters: TypeScript identifiers, property keys, import aliases and paths below generated/.
import { posix } from "node:path";

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Words that cannot name a binding (an import alias or a local), though they are fine as property names. */
const reserved = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "yield let static implements interface package private protected public await"
  ).split(" "),
);

/** A property name as written in an interface or object literal: quoted unless it is a plain identifier. */
export function propertyKey(name: string): string {
  return identifier.test(name) ? name : JSON.stringify(name);
}

/** "rbac.authorization.k8s.io/v1" → "rbacAuthorizationK8sIoV1", "pod-template" → "podTemplate". */
export function camelCase(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter((w) => w !== "");
  const joined = words.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() : w.charAt(0).toUpperCase()) + w.slice(1));
  const name = joined.join("");
  const safe = /^[0-9]/.test(name) ? `_${name}` : name;
  return reserved.has(safe) ? `${safe}_` : safe;
}

/** Namespace alias under which one schema file's generated module is imported: "apps/v1" → "appsV1". */
export function fileAlias(fileId: string): string {
  return camelCase(fileId);
}

/** apiVersion as written in objects: "v1" for the core group, "<group>/<version>" otherwise. */
export function apiVersionOf(group: string, version: string): string {
  return group === "" ? version : `${group}/${version}`;
}

/** Specifier importing generated file `to` from generated file `from` (both below generated/, `.ts`). */
export function relativeImport(from: string, to: string): string {
  const rel = posix.relative(posix.dirname(from), to).replace(/\.ts$/, ".js");
  return rel.startsWith(".") ? rel : `./${rel}`;
}
