// Structs that keep the fields they do not declare (`otherFields`, structured-merge-diff's Map.ElementType
// beside declared Fields): undeclared fields take that type and are members themselves, as map entries
// are; declared ones keep their own types and markers. Built-in definitions have no otherFields.
import { describe, expect, it } from "vitest";
import { fieldTable } from "../../../generated/fields.js";
import { type ManagedSchema, schemaForKind } from "../../../runtime/apply/field-manager.js";
import { pathText } from "../../../runtime/apply/fieldpath/path-string.js";
import { rootType } from "../../../runtime/apply/typed/managed-schema.js";
import { fieldSetOf } from "../../../runtime/apply/typed/to-field-set.js";
import type { TypedProblem } from "../../../runtime/apply/typed/typed-problem.js";
import type { FieldTable } from "../../../runtime/codecs/field-table.js";
import { appliedBy, runScript } from "./run-script.js";

const table = {
  kinds: { "example.com/v1/Box": 0 },
  definitions: [
    /* 0 */ { name: "Box", pkg: "v1", fields: { apiVersion: "string", kind: "string", metadata: 1, spec: 2 } },
    /* 1 */ { name: "ObjectMeta", pkg: "v1", fields: { name: "string", uid: "string" } },
    /* 2 */ {
      name: "BoxSpec",
      pkg: "v1",
      fields: { items: { list: 3, listType: "map", keys: ["name"] }, size: "int32" },
      otherFields: 3,
    },
    /* 3 */ { name: "Item", pkg: "v1", fields: { name: "string", value: "string" } },
  ],
} as FieldTable;

const schema: ManagedSchema = schemaForKind(table, "example.com/v1/Box");

function box(spec: string): string {
  const body = spec
    .trim()
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
  return `apiVersion: example.com/v1\nkind: Box\nmetadata:\n  name: b\nspec:\n${body}\n`;
}

describe("structs with other fields", () => {
  it("type undeclared fields by otherFields and make each a member", () => {
    const problems: TypedProblem[] = [];
    const value = { spec: { size: 1, extra: { name: "e", value: "v" }, wrong: { color: "red" } } };
    const set = fieldSetOf(schema, rootType(schema), value, problems);
    expect(set.paths().map(pathText).sort()).toEqual([
      ".spec.extra",
      ".spec.extra.name",
      ".spec.extra.value",
      ".spec.size",
      ".spec.wrong",
    ]);
    expect(problems.map((p) => `${pathText(p.path)}: ${p.message}`)).toEqual([
      ".spec.wrong.color: field not declared in schema",
    ]);
  });

  it("merge, own and remove undeclared fields beside declared ones; an applied null stays", () => {
    runScript({
      schema,
      apiVersion: "example.com/v1",
      kind: "Box",
      steps: [
        {
          op: "apply",
          manager: "a",
          object: box("items:\n- name: one\n  value: '1'\nfirst:\n  value: x\ncleared: null"),
          expectObject: box("items:\n- name: one\n  value: '1'\nfirst:\n  value: x\ncleared: null"),
          expectManaged: [
            appliedBy(
              "a",
              `f:spec: {f:items: {'k:{"name":"one"}': {.: {}, f:name: {}, f:value: {}}}, f:first: {.: {}, f:value: {}}, f:cleared: {}}`,
            ),
          ],
        },
        {
          op: "apply",
          manager: "b",
          object: box("items:\n- name: two\nfirst:\n  name: f"),
          expectObject: box(
            "items:\n- name: one\n  value: '1'\n- name: two\nfirst:\n  value: x\n  name: f\ncleared: null",
          ),
        },
        {
          op: "apply",
          manager: "a",
          object: box("size: 2"),
          expectObject: box("items:\n- name: two\nfirst:\n  name: f\nsize: 2"),
        },
      ],
    });
  });

  it("are not in the built-in table", () => {
    expect(fieldTable.definitions.some((d) => "otherFields" in d)).toBe(false);
  });
});
