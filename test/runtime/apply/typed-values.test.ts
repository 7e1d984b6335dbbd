// The walks over objects against the schema: field sets, comparisons (with Go's always-present fields),
// merges with list ordering, removals, named struct fields and topology reconciliation.
import { describe, expect, it } from "vitest";
import { FieldSet } from "../../../runtime/apply/fieldpath/field-set.js";
import { withNamedFieldsAsMembers } from "../../../runtime/apply/fieldpath/named-fields.js";
import { fieldElement, keyElement, type Path } from "../../../runtime/apply/fieldpath/path-element.js";
import { pathText } from "../../../runtime/apply/fieldpath/path-string.js";
import { compareObjects } from "../../../runtime/apply/typed/compare-objects.js";
import { rootType } from "../../../runtime/apply/typed/managed-schema.js";
import { mergeObjects } from "../../../runtime/apply/typed/merge-objects.js";
import { reconcileWithSchema } from "../../../runtime/apply/typed/reconcile-schema.js";
import { removeItems } from "../../../runtime/apply/typed/remove-items.js";
import { fieldSetOf } from "../../../runtime/apply/typed/to-field-set.js";
import type { TypedProblem } from "../../../runtime/apply/typed/typed-problem.js";
import { thingSchema } from "./thing-schema.js";

const type = rootType(thingSchema);
const texts = (s: FieldSet) => s.paths().map(pathText);
const p = (...names: string[]): Path => names.map(fieldElement);

describe("field sets of values", () => {
  it("own leaves, atomic values, list items and map entries, not the structs holding them", () => {
    const set = fieldSetOf(thingSchema, type, {
      spec: {
        replicas: 1,
        atomicList: [1],
        setList: ["a"],
        mapList: [{ name: "n" }],
        granularMap: { k: "v" },
        atomicStruct: { x: 1 },
      },
    });
    expect(texts(set)).toEqual([
      ".spec.atomicList",
      ".spec.atomicStruct",
      ".spec.replicas",
      ".spec.granularMap.k",
      '.spec.mapList[name="n"]',
      '.spec.mapList[name="n"].name',
      '.spec.setList[="a"]',
    ]);
  });

  it("report what does not fit the schema", () => {
    const problems: TypedProblem[] = [];
    fieldSetOf(thingSchema, type, { spec: { replicas: "x", atomicList: {}, setList: [{}], image: true } }, problems);
    expect(problems.map((q) => `${pathText(q.path)}: ${q.message}`)).toEqual([
      ".spec.replicas: expected numeric (int or float), got string",
      ".spec.atomicList: expected list, got map",
      ".spec.setList: element 0: associative list without keys has an element that's a map type",
      ".spec.image: expected string, got boolean",
    ]);
  });
});

describe("comparisons", () => {
  it("sort changes into added, modified and removed, with containers that come and go", () => {
    const c = compareObjects(
      thingSchema,
      type,
      { spec: { replicas: 1, image: "a", mapList: [{ name: "x", value: "1" }] } },
      { spec: { replicas: 2, granularMap: { k: "v" }, mapList: [{ name: "y" }] } },
    );
    expect(texts(c.added)).toEqual([
      ".spec.granularMap",
      ".spec.granularMap.k",
      '.spec.mapList[name="y"]',
      '.spec.mapList[name="y"].name',
    ]);
    expect(texts(c.modified)).toEqual([".spec.replicas"]);
    expect(texts(c.removed)).toEqual([
      ".spec.image",
      '.spec.mapList[name="x"]',
      '.spec.mapList[name="x"].name',
      '.spec.mapList[name="x"].value',
    ]);
  });

  it("see a struct Go always serializes as present though the JSON omits it", () => {
    const c = compareObjects(thingSchema, type, {}, { spec: { replicas: 1 }, metadata: { labels: { a: "b" } } });
    expect(texts(c.added)).toEqual([".metadata.labels", ".metadata.labels.a", ".spec.replicas"]);
  });
});

describe("merges", () => {
  it("keep what the configuration omits and take what it sets", () => {
    const merged = mergeObjects(
      thingSchema,
      type,
      { spec: { replicas: 1, image: "a", granularMap: { x: "1" }, atomicMap: { x: "1" }, setList: ["a"] } },
      { spec: { replicas: 2, granularMap: { y: "2" }, atomicMap: { y: "2" }, setList: ["b"], image: null } },
    );
    expect(merged).toEqual({
      spec: { replicas: 2, granularMap: { x: "1", y: "2" }, atomicMap: { y: "2" }, setList: ["a", "b"] },
    });
  });

  it("order list items as structured-merge-diff does", () => {
    const names = (list: string[]) => ({ spec: { mapList: list.map((name) => ({ name })) } });
    const order = (live: string[], config: string[]) =>
      (
        mergeObjects(thingSchema, type, names(live), names(config)) as { spec: { mapList: { name: string }[] } }
      ).spec.mapList.map((i) => i.name);
    expect(order(["a", "b", "c"], ["b", "a"])).toEqual(["b", "c", "a"]);
    expect(order(["a", "b", "c"], ["c", "new", "a"])).toEqual(["b", "c", "new", "a"]);
    expect(order(["a", "b"], ["x", "b", "y"])).toEqual(["a", "x", "b", "y"]);
    expect(order([], ["x", "y"])).toEqual(["x", "y"]);
  });
});

describe("removals and named fields", () => {
  it("remove members whole and descend into paths that only pass through", () => {
    const value = {
      spec: { replicas: 1, mapList: [{ name: "x", value: "1" }, { name: "y" }], granularMap: { k: "v" } },
    };
    const toRemove = FieldSet.of(
      p("spec", "replicas"),
      [fieldElement("spec"), fieldElement("mapList"), keyElement([{ name: "name", value: "y" }])],
      [
        fieldElement("spec"),
        fieldElement("mapList"),
        keyElement([{ name: "name", value: "x" }]),
        fieldElement("value"),
      ],
      p("spec", "granularMap", "k"),
    );
    expect(removeItems(thingSchema, type, value, toRemove)).toEqual({ spec: { mapList: [{ name: "x" }] } });
    expect(value.spec.replicas).toBe(1);
  });

  it("make the struct fields on the way to a leaf members, not map entries", () => {
    const set = withNamedFieldsAsMembers(
      thingSchema,
      type,
      FieldSet.of(p("spec", "granularMap", "k"), p("metadata", "labels", "a")),
    );
    expect(texts(set)).toEqual([
      ".metadata",
      ".spec",
      ".metadata.labels",
      ".metadata.labels.a",
      ".spec.granularMap",
      ".spec.granularMap.k",
    ]);
  });

  it("give a whole atomic value to whoever owned a part of it", () => {
    const owned = FieldSet.of(p("spec", "atomicStruct", "x"), p("spec", "replicas"));
    expect(texts(reconcileWithSchema(thingSchema, type, owned))).toEqual([".spec.atomicStruct", ".spec.replicas"]);
    const unchanged = FieldSet.of(p("spec", "replicas"));
    expect(reconcileWithSchema(thingSchema, type, unchanged)).toBe(unchanged);
  });
});
