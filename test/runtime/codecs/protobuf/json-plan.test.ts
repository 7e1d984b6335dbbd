import { describe, expect, it } from "vitest";
import { fieldTable } from "../../../../generated/fields.js";
import type { FieldNode } from "../../../../runtime/codecs/field-table.js";
import { jsonPlan, type MessagePlan } from "../../../../runtime/codecs/protobuf/json-plan.js";
import { protoMessage, protoPackage } from "../../../../runtime/codecs/protobuf/proto-root.js";

/** The JSON keys a plan writes, an inlined struct's with its parent's. */
function keysOf(plan: MessagePlan): string[] {
  return [...plan.fields.values()].flatMap((f) => (f.shape === "inline" ? keysOf(f.plan) : [f.key]));
}

/** The field-table definition behind a JSON value, through lists and maps. */
function definitionIn(node: FieldNode | undefined): number | undefined {
  if (node === undefined || typeof node === "number") return node;
  if (typeof node === "string") return undefined;
  return definitionIn("list" in node ? node.list : node.map);
}

describe("JSON plans of every kind with a protobuf message", () => {
  it("match each JSON field of each definition with one wire field", () => {
    const problems: string[] = [];
    const seen = new Set<MessagePlan>();
    const check = (plan: MessagePlan, n: number) => {
      if (seen.has(plan)) return;
      seen.add(plan);
      const def = fieldTable.definitions[n];
      if (def === undefined) throw new Error(`no definition ${n}`);
      const keys = keysOf(plan);
      if (new Set(keys).size !== keys.length) problems.push(`${def.name}: a JSON field is written twice`);
      for (const k of Object.keys(def.fields)) {
        if (!keys.includes(k) && k !== "apiVersion" && k !== "kind") problems.push(`${def.name}.${k}: no wire field`);
      }
      const visit = (p: MessagePlan) => {
        for (const f of p.fields.values()) {
          if (f.shape === "inline") visit(f.plan);
          else if (f.value.kind === "message") {
            const inner = definitionIn(def.fields[f.key]);
            if (inner !== undefined) check(f.value.plan, inner);
          }
        }
      };
      visit(plan);
    };
    let planned = 0;
    for (const [key, n] of Object.entries(fieldTable.kinds)) {
      const [kind, version, ...group] = key.split("/").reverse();
      const groupName = group.reverse().join("/");
      const dir = groupName === "" ? "core" : groupName === "meta.k8s.io" ? "meta" : groupName;
      const pkg = protoPackage(`${dir}/${version}.proto`);
      const message = pkg === undefined ? undefined : protoMessage(`${pkg}.${kind}`);
      if (message === undefined) continue;
      check(jsonPlan(message, n), n);
      planned++;
    }
    expect(problems).toEqual([]);
    expect(planned).toBeGreaterThan(100);
    expect(seen.size).toBeGreaterThan(500);
  });
});
