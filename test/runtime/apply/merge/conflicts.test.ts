// The apply conflict Status: kube's message for one and for several conflicts, grouped by manager, and
// how appliers, updaters and subresource writers are named.
import { describe, expect, it } from "vitest";
import { fieldElement } from "../../../../runtime/apply/fieldpath/path-element.js";
import { managerKey } from "../../../../runtime/apply/managed-fields.js";
import { applyConflictError } from "../../../../runtime/apply/merge/conflicts.js";

const path = (...names: string[]) => names.map(fieldElement);
const applier = managerKey({ manager: "helm", operation: "Apply" });
const updater = managerKey({ manager: "kubectl-edit", operation: "Update", apiVersion: "apps/v1" });
const statusWriter = managerKey({ manager: "ctl", operation: "Apply", subresource: "status" });

describe("apply conflict errors", () => {
  it("word a single conflict", () => {
    const e = applyConflictError([{ manager: updater, path: path("spec", "replicas") }]);
    expect(e.status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'Apply failed with 1 conflict: conflict with "kubectl-edit" using apps/v1: .spec.replicas',
      reason: "Conflict",
      details: {
        causes: [
          {
            reason: "FieldManagerConflict",
            message: 'conflict with "kubectl-edit" using apps/v1',
            field: ".spec.replicas",
          },
        ],
      },
      code: 409,
    });
  });

  it("group several conflicts by manager", () => {
    const e = applyConflictError([
      { manager: updater, path: path("spec", "replicas") },
      { manager: statusWriter, path: path("status", "phase") },
      { manager: applier, path: path("spec", "paused") },
    ]);
    expect(e.status.message).toBe(
      'Apply failed with 3 conflicts: conflicts with "ctl" with subresource "status":\n- .status.phase\n' +
        'conflicts with "helm":\n- .spec.paused\nconflicts with "kubectl-edit" using apps/v1:\n- .spec.replicas',
    );
    expect(e.status.details?.causes?.map((c) => c.message)).toEqual([
      'conflict with "ctl" with subresource "status"',
      'conflict with "helm"',
      'conflict with "kubectl-edit" using apps/v1',
    ]);
  });
});
