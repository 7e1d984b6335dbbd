// Role bindings and cluster role bindings: the role and, wide, the subjects by kind.
import type { JsonObject } from "../object/json-object.js";
import { at, objects, str } from "./fields.js";
import type { PrinterCells } from "./printer-cell.js";

function subjects(binding: JsonObject, kind: string): string {
  return objects(binding.subjects)
    .filter((s) => s.kind === kind)
    .map((s) => (kind === "ServiceAccount" ? `${str(s.namespace)}/${str(s.name)}` : str(s.name)))
    .join(", ");
}

export const cells = {
  role: (b) => `${str(at(b, "roleRef", "kind"))}/${str(at(b, "roleRef", "name"))}`,
  users: (b) => subjects(b, "User"),
  groups: (b) => subjects(b, "Group"),
  serviceAccounts: (b) => subjects(b, "ServiceAccount"),
} satisfies PrinterCells;
