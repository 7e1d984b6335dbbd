// A small kind with one field per merge marker, for the operation scripts: `Thing` in example.com/v1.

import { type ManagedSchema, schemaForKind } from "../../../runtime/apply/field-manager.js";
import type { FieldTable } from "../../../runtime/codecs/field-table.js";

export const thingTable: FieldTable = {
  kinds: { "example.com/v1/Thing": 0 },
  definitions: [
    /* 0 */ {
      name: "Thing",
      pkg: "v1",
      fields: { apiVersion: "string", kind: "string", metadata: 1, spec: 2, status: 5 },
      present: { metadata: {}, spec: {}, status: {} },
    },
    /* 1 */ {
      name: "ObjectMeta",
      pkg: "v1",
      fields: {
        name: "string",
        namespace: "string",
        uid: "string",
        resourceVersion: "string",
        generation: "int64",
        labels: { map: "string" },
        annotations: { map: "string" },
        finalizers: { list: "string", listType: "set" },
        managedFields: { list: "any", listType: "atomic" },
      },
    },
    /* 2 */ {
      name: "ThingSpec",
      pkg: "v1",
      fields: {
        replicas: "int32",
        image: "string",
        atomicList: { list: "string", listType: "atomic" },
        plainList: { list: "string" },
        setList: { list: "string", listType: "set" },
        mapList: { list: 3, listType: "map", keys: ["name"] },
        portList: { list: 6, listType: "map", keys: ["port", "protocol"] },
        mergeList: { list: 3 },
        mergeSet: { list: "string" },
        granularMap: { map: "string" },
        atomicMap: { map: "string", mapType: "atomic" },
        atomicStruct: 4,
        optional: 4,
        untyped: "any",
      },
      patch: { mergeList: { strategy: "merge", mergeKey: "name" }, mergeSet: { strategy: "merge" } },
    },
    /* 3 */ { name: "Item", pkg: "v1", fields: { name: "string", value: "string", other: "string" } },
    /* 4 */ { name: "Point", pkg: "v1", fields: { x: "int64", y: "int64" }, atomic: true },
    /* 5 */ { name: "ThingStatus", pkg: "v1", fields: { phase: "string", ready: "bool" } },
    /* 6 */ {
      name: "Port",
      pkg: "v1",
      fields: { port: "int32", protocol: "string", name: "string" },
      defaults: { protocol: "TCP" },
    },
  ],
} as FieldTable;

export const thingSchema: ManagedSchema = schemaForKind(thingTable, "example.com/v1/Thing");

/** A Thing applied or written by a script, YAML with the type metadata and a name filled in. */
export function thing(spec: string, extra = ""): string {
  const body = spec
    .trim()
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
  return `apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: t\n${extra}spec:\n${body}\n`;
}
