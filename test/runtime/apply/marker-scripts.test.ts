// One script per merge marker (the spec's marker table and kube-openapi's reading of it): atomic, set and
// map lists, a list with only a merge patch strategy, a plain list, granular and atomic maps, atomic
// structs, untyped values, and schema topology changes.
import { describe, expect, it } from "vitest";
import { schemaForKind } from "../../../runtime/apply/field-manager.js";
import type { FieldTable } from "../../../runtime/codecs/field-table.js";
import { appliedBy, runScript } from "./run-script.js";
import { thing, thingSchema, thingTable } from "./thing-schema.js";

const base = { schema: thingSchema, apiVersion: "example.com/v1" };

describe("lists", () => {
  it("an atomic list is one field: replaced whole, owned whole, conflicting whole", () => {
    runScript({
      ...base,
      steps: [
        {
          op: "apply",
          manager: "a",
          object: thing("atomicList: [x, y]"),
          expectManaged: [appliedBy("a", "f:spec: {f:atomicList: {}}")],
        },
        {
          op: "apply",
          manager: "b",
          object: thing("atomicList: [x, y, z]"),
          conflicts: ['conflict with "a": .spec.atomicList'],
        },
        { op: "force-apply", manager: "b", object: thing("atomicList: [z]"), expectObject: thing("atomicList: [z]") },
      ],
    });
  });

  it("a list without markers is atomic", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: thing("plainList: [x]") },
        {
          op: "apply",
          manager: "b",
          object: thing("plainList: [y]"),
          conflicts: ['conflict with "a": .spec.plainList'],
        },
      ],
    });
  });

  it("a set's items are owned one by one and merge by value", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: thing("setList: [x, y]") },
        {
          op: "apply",
          manager: "b",
          object: thing("setList: [z]"),
          expectObject: thing("setList: [x, y, z]"),
          expectManaged: [
            appliedBy("a", `f:spec: {f:setList: {'v:"x"': {}, 'v:"y"': {}}}`),
            appliedBy("b", `f:spec: {f:setList: {'v:"z"': {}}}`),
          ],
        },
        { op: "apply", manager: "a", object: thing("setList: [y]"), expectObject: thing("setList: [y, z]") },
      ],
    });
  });

  it("a list map merges items by key; an item's fields are owned apart", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: thing("mapList: [{name: one, value: '1'}]") },
        {
          op: "apply",
          manager: "b",
          object: thing("mapList: [{name: one, other: o}, {name: two, value: '2'}]"),
          expectObject: thing("mapList: [{name: one, value: '1', other: o}, {name: two, value: '2'}]"),
          expectManaged: [
            appliedBy("a", `f:spec: {f:mapList: {'k:{"name":"one"}': {.: {}, f:name: {}, f:value: {}}}}`),
            appliedBy(
              "b",
              `f:spec: {f:mapList: {'k:{"name":"one"}': {.: {}, f:name: {}, f:other: {}}, 'k:{"name":"two"}': {.: {}, f:name: {}, f:value: {}}}}`,
            ),
          ],
        },
        {
          op: "apply",
          manager: "b",
          object: thing("mapList: [{name: one, value: '9'}]"),
          conflicts: ['conflict with "a": .spec.mapList[name="one"].value'],
        },
        // b drops item two: it goes, as only b had it; item one stays for a.
        {
          op: "apply",
          manager: "b",
          object: thing("mapList: [{name: one, other: o}]"),
          expectObject: thing("mapList: [{name: one, value: '1', other: o}]"),
        },
      ],
    });
  });

  it("a list map key omitted by an item takes the schema's default", () => {
    runScript({
      ...base,
      steps: [
        {
          op: "apply",
          manager: "a",
          object: thing("portList: [{port: 80}]"),
          expectManaged: [
            appliedBy("a", `f:spec: {f:portList: {'k:{"port":80,"protocol":"TCP"}': {.: {}, f:port: {}}}}`),
          ],
        },
        // The same item, its default now spelled out: b shares it rather than adding another.
        {
          op: "apply",
          manager: "b",
          object: thing("portList: [{port: 80, protocol: TCP, name: web}]"),
          expectObject: thing("portList: [{port: 80, protocol: TCP, name: web}]"),
        },
      ],
    });
  });

  it("a list with a merge patch strategy and no list type is a map keyed by its merge key", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: thing("mergeList: [{name: one, value: '1'}]") },
        {
          op: "apply",
          manager: "b",
          object: thing("mergeList: [{name: two, value: '2'}]"),
          expectObject: thing("mergeList: [{name: one, value: '1'}, {name: two, value: '2'}]"),
          expectManaged: [
            appliedBy("a", `f:spec: {f:mergeList: {'k:{"name":"one"}': {.: {}, f:name: {}, f:value: {}}}}`),
            appliedBy("b", `f:spec: {f:mergeList: {'k:{"name":"two"}': {.: {}, f:name: {}, f:value: {}}}}`),
          ],
        },
      ],
    });
  });

  it("a list with a merge patch strategy and no merge key is a set", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: thing("mergeSet: [x]") },
        {
          op: "apply",
          manager: "b",
          object: thing("mergeSet: [y]"),
          expectObject: thing("mergeSet: [x, y]"),
          expectManaged: [
            appliedBy("a", `f:spec: {f:mergeSet: {'v:"x"': {}}}`),
            appliedBy("b", `f:spec: {f:mergeSet: {'v:"y"': {}}}`),
          ],
        },
      ],
    });
  });

  it("merged list items keep the live order, with the configuration's items in its own order", () => {
    runScript({
      ...base,
      steps: [
        { op: "update", manager: "u", object: thing("mapList: [{name: a}, {name: b}, {name: c}]") },
        {
          op: "apply",
          manager: "x",
          object: thing("mapList: [{name: c}, {name: new}, {name: a}]"),
          expectObject: thing("mapList: [{name: b}, {name: c}, {name: new}, {name: a}]"),
        },
      ],
    });
  });
});

describe("maps and structs", () => {
  it("a granular map's entries are owned apart", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: thing("granularMap: {x: '1'}") },
        {
          op: "apply",
          manager: "b",
          object: thing("granularMap: {y: '2'}"),
          expectObject: thing("granularMap: {x: '1', y: '2'}"),
          expectManaged: [
            appliedBy("a", "f:spec: {f:granularMap: {f:x: {}}}"),
            appliedBy("b", "f:spec: {f:granularMap: {f:y: {}}}"),
          ],
        },
        {
          op: "apply",
          manager: "b",
          object: thing("granularMap: {x: '3'}"),
          conflicts: ['conflict with "a": .spec.granularMap.x'],
        },
      ],
    });
  });

  it("an atomic map is replaced and owned whole", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: thing("atomicMap: {x: '1'}") },
        {
          op: "apply",
          manager: "b",
          object: thing("atomicMap: {y: '2'}"),
          conflicts: ['conflict with "a": .spec.atomicMap'],
        },
        {
          op: "force-apply",
          manager: "b",
          object: thing("atomicMap: {y: '2'}"),
          expectObject: thing("atomicMap: {y: '2'}"),
          expectManaged: [appliedBy("b", "f:spec: {f:atomicMap: {}}")],
        },
      ],
    });
  });

  it("an atomic struct is replaced and owned whole", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: thing("atomicStruct: {x: 1}") },
        {
          op: "apply",
          manager: "b",
          object: thing("atomicStruct: {y: 2}"),
          conflicts: ['conflict with "a": .spec.atomicStruct'],
        },
        {
          op: "force-apply",
          manager: "b",
          object: thing("atomicStruct: {y: 2}"),
          expectObject: thing("atomicStruct: {y: 2}"),
        },
      ],
    });
  });

  it("an untyped value is deduced: objects are granular maps, lists atomic", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: thing("untyped: {a: {b: 1}, l: [1, 2]}") },
        {
          op: "apply",
          manager: "b",
          object: thing("untyped: {a: {c: 2}}"),
          expectObject: thing("untyped: {a: {b: 1, c: 2}, l: [1, 2]}"),
          expectManaged: [
            appliedBy("a", "f:spec: {f:untyped: {f:a: {.: {}, f:b: {}}, f:l: {}}}"),
            appliedBy("b", "f:spec: {f:untyped: {f:a: {.: {}, f:c: {}}}}"),
          ],
        },
        {
          op: "apply",
          manager: "b",
          object: thing("untyped: {l: [3]}"),
          conflicts: ['conflict with "a": .spec.untyped.l'],
        },
      ],
    });
  });

  it("a kind the table does not know is unstructured: every key owned, lists atomic", () => {
    const schema = schemaForKind(thingTable, "example.com/v1/Unknown");
    const result = runScript({
      schema,
      apiVersion: "example.com/v1",
      steps: [
        {
          op: "apply",
          manager: "a",
          object: "apiVersion: example.com/v1\nkind: Unknown\nmetadata: {name: u}\nspec: {list: [{k: v}], n: 1}",
          expectManaged: [
            {
              manager: "a",
              operation: "Apply",
              // metadata and its name are never owned; everything else is a map entry, so a member.
              fields: "f:spec: {.: {}, f:list: {}, f:n: {}}",
            },
          ],
        },
      ],
    });
    expect(result?.spec).toEqual({ list: [{ k: "v" }], n: 1 });
  });

  it("an optional struct emptied by its applier goes with its last field", () => {
    const table = structuredClone(thingTable) as FieldTable;
    delete (table.definitions[4] as { atomic?: true }).atomic;
    const schema = schemaForKind(table, "example.com/v1/Thing");
    runScript({
      schema,
      apiVersion: "example.com/v1",
      steps: [
        { op: "apply", manager: "a", object: thing("optional: {x: 1}\nimage: i") },
        { op: "apply", manager: "a", object: thing("image: i"), expectObject: thing("image: i") },
      ],
    });
  });
});

describe("topology changes", () => {
  const granular = structuredClone(thingTable) as FieldTable;
  delete (granular.definitions[4] as { atomic?: true }).atomic;
  const granularSchema = schemaForKind(granular, "example.com/v1/Thing");

  it("granular to atomic: an owner of any part owns the whole", () => {
    const live = runScript({
      schema: granularSchema,
      apiVersion: "example.com/v1",
      steps: [{ op: "apply", manager: "a", object: thing("atomicStruct: {x: 1}") }],
    });
    runScript(
      {
        ...base,
        steps: [
          {
            op: "apply",
            manager: "b",
            object: thing("atomicStruct: {x: 1, y: 2}"),
            conflicts: ['conflict with "a": .spec.atomicStruct'],
          },
          {
            op: "force-apply",
            manager: "b",
            object: thing("atomicStruct: {x: 1, y: 2}"),
            expectManaged: [appliedBy("b", "f:spec: {f:atomicStruct: {}}")],
          },
        ],
      },
      live,
    );
  });

  it("atomic to granular: ownership of the parts cannot be told, so changing one conflicts with no one", () => {
    const live = runScript({
      ...base,
      steps: [{ op: "apply", manager: "a", object: thing("atomicStruct: {x: 1, y: 2}") }],
    });
    runScript(
      {
        schema: granularSchema,
        apiVersion: "example.com/v1",
        steps: [
          {
            op: "apply",
            manager: "b",
            object: thing("atomicStruct: {y: 3}"),
            expectObject: thing("atomicStruct: {x: 1, y: 3}"),
          },
        ],
      },
      live,
    );
  });
});
