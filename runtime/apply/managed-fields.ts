// metadata.managedFields and the managers it records. Each entry is one manager: its name, the operation
// (Apply or Update), the apiVersion its fields are written in, the subresource it wrote through, when it
// last changed something, and its fields as FieldsV1. Managers are told apart by an identifier built as
// kube builds it (BuildManagerIdentifier): the entry without time and fields, and without apiVersion for
// appliers, so an applier is one manager whatever version it applies in, an updater one per version.

import { goJson } from "../errors/go-format.js";
import { isJsonObject } from "../object/json-object.js";
import { compareGoStrings } from "../selection/go-strings.js";
import type { FieldSet } from "./fieldpath/field-set.js";
import { decodeFieldsV1, type FieldsV1, fieldsV1Of } from "./fieldpath/fields-v1.js";

export type Operation = "Apply" | "Update";

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: FieldsV1;
  subresource?: string;
}

export interface ManagerIdentity {
  manager: string;
  operation: Operation;
  /** Part of an updater's identity only. */
  apiVersion?: string;
  subresource?: string;
}

export interface VersionedSet {
  readonly set: FieldSet;
  readonly apiVersion: string;
  /** Written by an apply (operation Apply). */
  readonly applied: boolean;
}

/** Managers by identifier. */
export type Managers = Map<string, VersionedSet>;

export interface ManagedState {
  readonly managers: Managers;
  /** When each manager last changed something (RFC 3339), by identifier. */
  readonly times: Map<string, string>;
}

export function emptyManagedState(): ManagedState {
  return { managers: new Map(), times: new Map() };
}

export function cloneManagedState(state: ManagedState): ManagedState {
  return { managers: new Map(state.managers), times: new Map(state.times) };
}

/** The identifier: the identity as json.Marshal writes a ManagedFieldsEntry holding only it. */
export function managerKey(identity: ManagerIdentity): string {
  const parts: string[] = [];
  if (identity.manager !== "") parts.push(`"manager":${goJson(identity.manager)}`);
  parts.push(`"operation":${goJson(identity.operation)}`);
  if (identity.operation === "Update" && identity.apiVersion !== undefined && identity.apiVersion !== "") {
    parts.push(`"apiVersion":${goJson(identity.apiVersion)}`);
  }
  if (identity.subresource !== undefined && identity.subresource !== "") {
    parts.push(`"subresource":${goJson(identity.subresource)}`);
  }
  return `{${parts.join(",")}}`;
}

export function managerIdentity(key: string): ManagerIdentity {
  const parsed = JSON.parse(key) as {
    manager?: string;
    operation: Operation;
    apiVersion?: string;
    subresource?: string;
  };
  return {
    manager: parsed.manager ?? "",
    operation: parsed.operation,
    ...(parsed.apiVersion !== undefined ? { apiVersion: parsed.apiVersion } : {}),
    ...(parsed.subresource !== undefined ? { subresource: parsed.subresource } : {}),
  };
}

function stringField(entry: Record<string, unknown>, name: string, index: number): string {
  const value = entry[name];
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw new Error(`managed fields entry ${index}: ${name} must be a string`);
  return value;
}

/** The managers an object's managedFields records; throws with kube's reason when an entry is unusable. */
export function decodeManagedFields(entries: unknown): ManagedState {
  const state = emptyManagedState();
  if (entries === undefined || entries === null) return state;
  if (!Array.isArray(entries)) throw new Error("managedFields must be a list");
  entries.forEach((raw, i) => {
    if (!isJsonObject(raw)) throw new Error(`managed fields entry ${i} must be an object`);
    const operation = stringField(raw, "operation", i);
    if (operation !== "Apply" && operation !== "Update") throw new Error("operation must be `Apply` or `Update`");
    const apiVersion = stringField(raw, "apiVersion", i);
    if (apiVersion === "") throw new Error("apiVersion must not be empty");
    const fieldsType = stringField(raw, "fieldsType", i);
    if (fieldsType === "") throw new Error(`missing fieldsType in managed fields entry ${i}`);
    if (fieldsType !== "FieldsV1")
      throw new Error(`invalid fieldsType ${goJson(fieldsType)} in managed fields entry ${i}`);
    const subresource = stringField(raw, "subresource", i);
    const key = managerKey({
      manager: stringField(raw, "manager", i),
      operation,
      apiVersion,
      ...(subresource !== "" ? { subresource } : {}),
    });
    const fields = raw.fieldsV1 ?? {};
    state.managers.set(key, { set: decodeFieldsV1(fields), apiVersion, applied: operation === "Apply" });
    const time = stringField(raw, "time", i);
    if (time !== "") state.times.set(key, time);
    else state.times.delete(key);
  });
  return state;
}

function seconds(time: string | undefined): number {
  const ms = time === undefined ? Number.NaN : Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

function compareEntries(p: ManagedFieldsEntry, q: ManagedFieldsEntry): number {
  const byText = (a: string | undefined, b: string | undefined) => compareGoStrings(a ?? "", b ?? "");
  return (
    byText(p.operation, q.operation) ||
    seconds(p.time) - seconds(q.time) ||
    byText(p.manager, q.manager) ||
    byText(p.apiVersion, q.apiVersion) ||
    byText(p.subresource, q.subresource)
  );
}

/** The managedFields list of a state, ordered as kube orders it; undefined when there is no manager. */
export function encodeManagedFields(state: ManagedState): ManagedFieldsEntry[] | undefined {
  if (state.managers.size === 0) return undefined;
  const entries: ManagedFieldsEntry[] = [];
  for (const [key, versioned] of state.managers) {
    const identity = managerIdentity(key);
    const time = state.times.get(key);
    const entry: ManagedFieldsEntry = {};
    if (identity.manager !== "") entry.manager = identity.manager;
    entry.operation = versioned.applied ? "Apply" : identity.operation;
    if (versioned.apiVersion !== "") entry.apiVersion = versioned.apiVersion;
    if (time !== undefined) entry.time = time;
    entry.fieldsType = "FieldsV1";
    entry.fieldsV1 = fieldsV1Of(versioned.set);
    if (identity.subresource !== undefined) entry.subresource = identity.subresource;
    entries.push(entry);
  }
  return entries.sort(compareEntries);
}

/** `managedFields: [{}]`, a single entry with nothing set: the request to stop tracking the object's fields. */
export function isResetManagedFields(entries: unknown): boolean {
  if (!Array.isArray(entries) || entries.length !== 1) return false;
  const only = entries[0];
  return isJsonObject(only) && Object.values(only).every((v) => v === null || v === "");
}
