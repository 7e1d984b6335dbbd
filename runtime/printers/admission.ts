// Admission configuration: webhook configurations, admission policies and their bindings.
import type { JsonObject } from "../object/json-object.js";
import { at, formatLabelSelector, list, obj, str } from "./fields.js";
import type { PrinterCells } from "./printer-cell.js";

function paramKind(policy: JsonObject): string {
  const kind = at(policy, "spec", "paramKind");
  return kind === undefined ? "<unset>" : `${str(obj(kind).apiVersion)}/${str(obj(kind).kind)}`;
}

function paramRef(binding: JsonObject): string {
  const ref = at(binding, "spec", "paramRef");
  if (ref === undefined) return "<unset>";
  const r = obj(ref);
  if (str(r.name) !== "") return `${str(r.namespace) || "*"}/${str(r.name)}`;
  // An empty selector prints as selecting everything: labels.Everything().String() is "".
  if (r.selector !== undefined) {
    const text = formatLabelSelector(r.selector);
    return text === "<none>" ? "" : text;
  }
  return "<unset>";
}

export const cells = {
  webhooks: (c) => list(c.webhooks).length,
  validations: (p) => list(at(p, "spec", "validations")).length,
  mutations: (p) => list(at(p, "spec", "mutations")).length,
  paramKind,
  policyName: (b) => str(at(b, "spec", "policyName")),
  paramRef,
} satisfies PrinterCells;
