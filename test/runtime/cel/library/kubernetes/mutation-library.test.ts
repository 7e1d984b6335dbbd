// The mutation library: `Object.…{}` construction with types resolved on demand, JSONPatch values and
// their compile errors as kube-apiserver v1.36 reports them, and jsonpatch.escapeKey.
import { describe, expect, it } from "vitest";
import { CelObject } from "../../../../../runtime/cel/common/values.js";
import { mutationLibrary } from "../../../../../runtime/cel/library/kubernetes/mutation-library.js";
import { evaluator, itHolds } from "../evaluate.js";

const evaluate = evaluator(mutationLibrary);

describe("mutation library", () => {
  itHolds(evaluate, [
    `jsonpatch.escapeKey("k8s.io/my~label") == "k8s.io~1my~0label"`,
    `Object{spec: Object.spec{replicas: 3}}.spec.replicas == 3`,
    `JSONPatch{op: "add", path: "/a", value: [1]}.value == [1]`,
    `type(Object.metadata{}) == Object.metadata`,
  ]);

  it("builds objects of the nested type names", () => {
    const result = evaluate(`Object{metadata: Object.metadata{labels: {"a": "b"}}}`);
    if (typeof result === "string") throw new Error(result);
    const value = result.value as CelObject;
    expect(value).toBeInstanceOf(CelObject);
    expect(value.type.name).toBe("Object");
    expect((value.get("metadata") as CelObject).type.name).toBe("Object.metadata");
  });

  it("reports JSONPatch fields as kube does", () => {
    expect(evaluate(`[JSONPatch{op: 1}]`)).toBe(
      "ERROR: <input>:1:14: expected type of field 'op' is 'string' but provided type is 'int'\n" +
        " | [JSONPatch{op: 1}]\n" +
        " | .............^",
    );
    expect(evaluate(`[JSONPatch{bogus: "x"}]`)).toBe(
      "ERROR: <input>:1:17: expected type of field 'bogus' is '' but provided type is 'string'\n" +
        ' | [JSONPatch{bogus: "x"}]\n' +
        " | ................^",
    );
  });

  it("resolves no other names", () => {
    expect(evaluate(`Objects{}`)).toMatch(/undeclared reference to 'Objects'/);
  });
});
