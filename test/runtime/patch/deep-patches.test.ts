// The patch appliers on documents nested as deep as kube's decoder lets a body be (10000): no walk of a
// patch or an object recurses on Node's call stack, and a strategic merge that would nest an object past
// the deepest kapi stores is refused in kube's words.
import { describe, expect, it } from "vitest";
import { fieldTable } from "../../../generated/fields.js";
import type { FieldTable } from "../../../runtime/codecs/field-table.js";
import { jsonEqual } from "../../../runtime/codecs/json-tree.js";
import { StatusError } from "../../../runtime/errors/status-error.js";
import { applyJsonPatch, decodeJsonPatch } from "../../../runtime/patch/json-patch.js";
import { applyMergePatch } from "../../../runtime/patch/merge-patch.js";
import { applyStrategicMergePatch } from "../../../runtime/patch/strategic-merge-patch.js";

const nestedText = (n: number, leaf = "1") => `${'{"a":'.repeat(n)}${leaf}${"}".repeat(n)}`;
const nested = (n: number, leaf = "1"): unknown => JSON.parse(nestedText(n, leaf));
const deployment = fieldTable.kinds["apps/v1/Deployment"] as number;

function thrown(run: () => unknown): StatusError {
  try {
    run();
  } catch (error) {
    if (error instanceof StatusError) return error;
    throw error;
  }
  throw new Error("expected a StatusError");
}

describe("JSON patch on deep documents", () => {
  it("adds, tests and copies values 9990 deep", () => {
    const body = `[{"op":"add","path":"/x","value":${nestedText(9990)}},{"op":"test","path":"/x","value":${nestedText(9990)}},{"op":"copy","from":"/x","path":"/y"}]`;
    const result = applyJsonPatch({}, body) as { x: unknown; y: unknown };
    expect(jsonEqual(result.x, nested(9990))).toBe(true);
    expect(jsonEqual(result.y, result.x)).toBe(true);
  });

  it("reports a repeated member at the bottom of a deep value", () => {
    const value = `${'{"a":'.repeat(5000)}{"k":1,"k":2}${"}".repeat(5000)}`;
    const patch = decodeJsonPatch(`[{"op":"add","path":"/x","value":${value},"extra":1}]`, "Warn");
    expect(patch.problems).toEqual([
      `json patch duplicate field "[0].value${".a".repeat(5000)}.k"`,
      'json patch unknown field "[0].extra"',
    ]);
  });
});

describe("merge patch on deep documents", () => {
  it("merges and removes members 9990 deep", () => {
    const target = { spec: nested(9990) };
    const result = applyMergePatch(target, { spec: nested(9990, "null") }) as { spec: unknown };
    expect(jsonEqual(result.spec, nested(9989, "{}"))).toBe(true);
    expect(jsonEqual(target.spec, nested(9990))).toBe(true);
  });
});

describe("strategic merge patch on deep documents", () => {
  const original = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "d" } };

  it("takes a deep value whole without its nulls and $patch maps", () => {
    const patch = { metadata: { annotations: nested(5000, '{"gone":null,"kept":1,"drop":{"$patch":"delete"}}') } };
    const result = applyStrategicMergePatch(original, patch, fieldTable, deployment) as {
      metadata: { annotations: unknown };
    };
    expect(jsonEqual(result.metadata.annotations, nested(5000, '{"kept":1}'))).toBe(true);
  });

  it("prints a deep value in an error as Go prints it", () => {
    const live = { ...original, spec: { template: { spec: { containers: [{ name: "c", image: "nginx" }] } } } };
    const patch = { spec: { template: { spec: { containers: [nested(3000)] } } } };
    const error = thrown(() => applyStrategicMergePatch(live, patch, fieldTable, deployment));
    expect(error.message).toBe(
      `map: ${"map[a:".repeat(3000)}1${"]".repeat(3000)} does not contain declared merge key: name`,
    );
  });

  it("refuses to merge past the deepest object kapi stores", () => {
    // A struct holding itself: merging follows both sides as deep as they go.
    const table: FieldTable = { definitions: [{ name: "Node", pkg: "v1", fields: { a: 0 } }], kinds: {} };
    const error = thrown(() => applyStrategicMergePatch(nested(1001), nested(1001, "2"), table, 0));
    expect([error.code, error.message]).toEqual([400, "invalid character '{' exceeded max depth"]);
    expect(jsonEqual(applyStrategicMergePatch(nested(1000), nested(1000, "2"), table, 0), nested(1000, "2"))).toBe(
      true,
    );
  });
});

describe("strategic merge patch deletions", () => {
  const containers = (...names: string[]) => names.map((name) => ({ name, image: "nginx" }));
  const original = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "d" },
    spec: { template: { spec: { containers: containers("a", "b", "c", "d", "e", "f") } } },
  };
  const namesAfter = (patch: unknown) =>
    (
      applyStrategicMergePatch(original, { spec: { template: { spec: patch } } }, fieldTable, deployment) as {
        spec: { template: { spec: { containers: { name: string }[] } } };
      }
    ).spec.template.spec.containers.map((c) => c.name);

  // Both orders checked against kube-apiserver v1.36.2, which deletes by shifting the list in place.
  it("orders what is left as kube's in-place deletions leave it", () => {
    expect(
      namesAfter({
        "$setElementOrder/containers": [{ name: "x" }, { name: "a" }, { name: "e" }, { name: "y" }],
        containers: [
          { name: "b", $patch: "delete" },
          { name: "x", image: "x" },
          { name: "d", $patch: "delete" },
          { name: "f", $patch: "delete" },
          { name: "y", image: "y" },
        ],
      }),
    ).toEqual(["c", "x", "a", "e", "y"]);
    expect(
      namesAfter({
        containers: [
          { name: "f", $patch: "delete" },
          { name: "x", image: "x" },
          { name: "a", $patch: "delete" },
          { name: "y", image: "y" },
          { name: "z", image: "z" },
        ],
      }),
    ).toEqual(["x", "y", "z", "b", "c", "d", "e"]);
  });
});
