// Which message a kind is written as: `<package>.<Kind>` of its group version's .proto file, then among
// meta.k8s.io/v1's kinds (Status, DeleteOptions, PartialObjectMetadata, …), which kube's schemes register in
// every group version. A list kind (`ConfigMapList`) is its own message of ListMeta and the kind's items.
import type protobuf from "protobufjs";
import { fieldTable } from "../../../generated/fields.js";
import { validationKey } from "../../../generated/validation.js";
import type { GroupVersionKind } from "../decode-errors.js";
import { kindFields } from "../unknown-fields.js";
import { type FieldPlan, jsonPlan, type MessagePlan } from "./json-plan.js";
import { protoMessage, protoPackage } from "./proto-root.js";

/** Where kube's schemes register meta.k8s.io's kinds: in every group version too. */
const metaGroupVersion = { group: "meta.k8s.io", version: "v1", path: "meta/v1.proto" };

export interface KindMessage {
  plan: MessagePlan;
  /** The kind's key in generated/validation.ts, for judging zero values (zero-values.ts). */
  key: string;
}

/** schema.ParseGroupVersion: a malformed apiVersion names no group or version. */
export function groupVersion(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion.split("/");
  if (parts.length === 1) return { group: "", version: apiVersion };
  if (parts.length === 2) return { group: parts[0] as string, version: parts[1] as string };
  return { group: "", version: "" };
}

/** The schema file of a group version: schemas/core/ holds the core group, schemas/<group>/ the others. */
function protoFile(group: string, version: string): string {
  return `${group === "" ? "core" : group}/${version}.proto`;
}

function message(path: string, kind: string): protobuf.Type | undefined {
  const pkg = protoPackage(path);
  return pkg === undefined ? undefined : protoMessage(`${pkg}.${kind}`);
}

function places(gvk: GroupVersionKind) {
  return [
    { ...gvk, path: protoFile(gvk.group, gvk.version) },
    { ...metaGroupVersion, kind: gvk.kind },
  ];
}

/** The message and field definition of a kind, looked up in its group version, then among meta's kinds. */
export function kindMessage(gvk: GroupVersionKind): KindMessage | undefined {
  for (const p of places(gvk)) {
    const type = message(p.path, p.kind);
    const fields = kindFields(p.group, p.version, p.kind);
    if (type !== undefined && fields !== undefined) {
      return { plan: jsonPlan(type, fields), key: validationKey(p.group, p.version, p.kind) };
    }
  }
  return undefined;
}

/** Whether a served kind has a protobuf message in its own group version (custom resources have none). */
export function kindHasMessage(gvk: GroupVersionKind): boolean {
  return message(protoFile(gvk.group, gvk.version), gvk.kind) !== undefined;
}

const listPlans = new Map<string, MessagePlan>();

function listMetaDefinition(): number {
  const n = fieldTable.definitions.findIndex((d) => d.name === "ListMeta" && d.pkg === "v1");
  if (n < 0) throw new Error("generated/fields.ts has no ListMeta");
  return n;
}

/** The plan of a list kind's message: `metadata` a ListMeta, `items` the item kind's messages. */
function listPlan(list: protobuf.Type, item: MessagePlan): MessagePlan {
  const known = listPlans.get(list.fullName);
  if (known !== undefined) return known;
  const fields = new Map<number, FieldPlan>();
  for (const field of list.fieldsArray) {
    const goName = field.name.charAt(0).toUpperCase() + field.name.slice(1);
    if (field.name === "items") {
      fields.set(field.id, { goName, shape: "list", key: "items", value: { kind: "message", plan: item } });
    } else if (field.name === "metadata" && field.resolvedType !== null) {
      const plan = jsonPlan(field.resolvedType as protobuf.Type, listMetaDefinition());
      fields.set(field.id, { goName, shape: "single", key: "metadata", value: { kind: "message", plan } });
    }
  }
  const plan: MessagePlan = { name: list.name, json: true, fields };
  listPlans.set(list.fullName, plan);
  return plan;
}

/** The plan of a kind or of a list kind (`<Kind>List` of a kind with a message), by its envelope's words. */
export function objectPlan(gvk: GroupVersionKind): MessagePlan | undefined {
  const found = kindMessage(gvk);
  if (found !== undefined) return found.plan;
  if (!gvk.kind.endsWith("List")) return undefined;
  const itemKind = gvk.kind.slice(0, -"List".length);
  for (const p of places({ ...gvk, kind: itemKind })) {
    const list = message(p.path, gvk.kind);
    const fields = kindFields(p.group, p.version, itemKind);
    const item = message(p.path, itemKind);
    if (list !== undefined && item !== undefined && fields !== undefined) {
      return listPlan(list, jsonPlan(item, fields));
    }
  }
  return undefined;
}
