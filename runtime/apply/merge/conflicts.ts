// The 409 an apply answers when it would change fields other managers own, worded as kube-apiserver's
// NewConflictError: one cause per field (reason FieldManagerConflict), and a message naming the manager of
// a single conflict or listing several grouped by manager. Updaters are named with the version they wrote
// in (`"kubectl" using apps/v1`), writers through a subresource with it.

import { goQuote } from "../../errors/go-format.js";
import { StatusError } from "../../errors/status-error.js";
import { compareGoStrings } from "../../selection/go-strings.js";
import { pathText } from "../fieldpath/path-string.js";
import { managerIdentity } from "../managed-fields.js";
import type { Conflict } from "./updater.js";

function managerText(key: string): string {
  const identity = managerIdentity(key);
  let text = goQuote(identity.manager);
  if (identity.subresource !== undefined) text += ` with subresource ${goQuote(identity.subresource)}`;
  if (identity.operation === "Update") text += ` using ${identity.apiVersion ?? ""}`;
  return text;
}

export function applyConflictError(conflicts: readonly Conflict[]): StatusError {
  const ordered = [...conflicts].sort((a, b) => compareGoStrings(a.manager, b.manager));
  const causes = ordered.map((c) => ({
    reason: "FieldManagerConflict",
    message: `conflict with ${managerText(c.manager)}`,
    field: pathText(c.path),
  }));
  let message: string;
  if (ordered.length === 1) {
    const only = ordered[0] as Conflict;
    message = `Apply failed with 1 conflict: conflict with ${managerText(only.manager)}: ${pathText(only.path)}`;
  } else {
    const lines: string[] = [];
    let previous: string | undefined;
    for (const c of ordered) {
      if (c.manager !== previous) lines.push(`conflicts with ${managerText(c.manager)}:`);
      lines.push(`- ${pathText(c.path)}`);
      previous = c.manager;
    }
    message = `Apply failed with ${ordered.length} conflicts: ${lines.join("\n")}`;
  }
  return new StatusError(409, "Conflict", message, { causes });
}
