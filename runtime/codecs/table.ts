// meta.k8s.io Table: what `kubectl get` asks for. Kinds with printer columns in their schema are converted as
// kube-apiserver converts a CustomResourceDefinition's additionalPrinterColumns (a Name column, then one column per
// JSONPath); kinds without get kube's default convertor (Name, Created At).
import type { PrinterColumn } from "../registry/kind-record.js";
import type { ServedKind } from "../registry/served-kind.js";
import { findJsonPath, type JsonPath, parseJsonPath, printJsonPathValue } from "./json-path.js";
import { listMetaOf, type MetaVersion, metaApiVersion, toPartialObjectMetadata } from "./partial-object-metadata.js";

export type IncludeObject = "None" | "Metadata" | "Object";

export interface TableOptions {
  includeObject: IncludeObject;
  version: MetaVersion;
  /** Present when the objects are a list: its resourceVersion, continue and remainingItemCount. */
  listMeta?: Record<string, unknown>;
  /** Watch events after the first carry rows only (`columnDefinitions: null`), as kube-apiserver sends them. */
  noHeaders?: boolean;
  /** The clock for date cells (milliseconds since the epoch); defaults to now. */
  now?: number;
}

interface ColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

const NAME_COLUMN: ColumnDefinition = {
  name: "Name",
  type: "string",
  format: "name",
  description: "Name of the object, unique among objects of its kind in a namespace.",
  priority: 0,
};

const CREATED_AT_COLUMN: ColumnDefinition = {
  name: "Created At",
  type: "date",
  format: "",
  description: "When the server created the object (RFC 3339, UTC).",
  priority: 0,
};

interface CompiledColumn {
  column: PrinterColumn;
  /** Undefined when the JSONPath does not parse: every cell of the column is then null. */
  path: JsonPath | undefined;
}

const compiled = new WeakMap<readonly PrinterColumn[], CompiledColumn[]>();

function compile(columns: readonly PrinterColumn[]): CompiledColumn[] {
  let out = compiled.get(columns);
  if (out === undefined) {
    out = columns.map((column) => {
      try {
        return { column, path: parseJsonPath(column.jsonPath) };
      } catch {
        return { column, path: undefined };
      }
    });
    compiled.set(columns, out);
  }
  return out;
}

function definition(c: PrinterColumn): ColumnDefinition {
  return {
    name: c.name,
    type: c.type,
    format: c.format ?? "",
    description: c.description ?? `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
    priority: c.priority ?? 0,
  };
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Go's time.Parse(time.RFC3339, s) in milliseconds since the epoch; undefined when it does not parse. */
export function parseRfc3339(s: string): number | undefined {
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map(Number);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Math.trunc(Number(`0${m[7] ?? ""}`) * 1000));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  const zone = m[8] ?? "Z";
  const sign = zone.startsWith("-") ? -1 : 1;
  const offset = zone === "Z" ? 0 : sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4)));
  return date.getTime() - offset * 60_000;
}

/** Go's zero time.Time, 0001-01-01T00:00:00Z. */
const ZERO_TIME = Date.parse("0001-01-01T00:00:00Z");

/** apimachinery's duration.HumanDuration: about two significant units (`45s`, `5m30s`, `3h`, `2d5h`, `3y`). */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / 60_000);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / 3_600_000);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  const years = Math.trunc(hours / 24 / 365);
  if (hours < 24 * 365 * 8) {
    const days = Math.trunc(hours / 24) % 365;
    return days === 0 ? `${years}y` : `${years}y${days}d`;
  }
  return `${years}y`;
}

/** A date cell: metav1.Time's query-parameter parsing, then the age as kubectl shows it. */
function dateCell(value: string, now: number): string {
  const time = value === "" || value === "null" ? ZERO_TIME : parseRfc3339(value);
  if (time === undefined) return "<invalid>";
  if (time === ZERO_TIME) return "<unknown>";
  return humanDuration(now - time);
}

/** The CRD table convertor's cellForJSONValue: a value of the wrong JSON type is null. */
function typedCell(type: PrinterColumn["type"], value: unknown, now: number): unknown {
  switch (type) {
    case "integer":
      return typeof value === "number" ? Math.trunc(value) : null;
    case "number":
      return typeof value === "number" ? value : null;
    case "boolean":
      return typeof value === "boolean" ? value : null;
    case "date":
      return typeof value === "string" ? dateCell(value, now) : null;
    case "string":
      return printJsonPathValue(value);
  }
}

function columnCell(c: CompiledColumn, obj: Record<string, unknown>, now: number): unknown {
  if (c.path === undefined) return null;
  let values: unknown[];
  try {
    values = findJsonPath(c.path, obj);
  } catch {
    return null;
  }
  if (values.length === 0) return null;
  // Only the first match counts, as in kube's convertor ("we only support simple JSON path").
  return typedCell(c.column.type, values[0], now);
}

function metadataOf(obj: Record<string, unknown>): Record<string, unknown> {
  const m = obj.metadata;
  return typeof m === "object" && m !== null ? (m as Record<string, unknown>) : {};
}

/** `creationTimestamp.UTC().Format(time.RFC3339)`; a missing timestamp is Go's zero time. */
function createdAt(obj: Record<string, unknown>): string {
  const raw = metadataOf(obj).creationTimestamp;
  const time = typeof raw === "string" ? parseRfc3339(raw) : undefined;
  if (time === undefined) return "0001-01-01T00:00:00Z";
  const iso = new Date(Math.floor(time / 1000) * 1000).toISOString();
  return `${iso.slice(0, 19)}Z`;
}

/** The object as the row's `object` when includeObject=Object: apiVersion and kind of the served version first. */
function fullObject(obj: Record<string, unknown>, kind: ServedKind): Record<string, unknown> {
  const { kind: _k, apiVersion: _a, ...rest } = obj;
  const apiVersion = kind.group === "" ? kind.version : `${kind.group}/${kind.version}`;
  return { kind: kind.kind, apiVersion, ...rest };
}

function rowObject(obj: Record<string, unknown>, kind: ServedKind, options: TableOptions): unknown {
  switch (options.includeObject) {
    case "None":
      return null;
    case "Object":
      return fullObject(obj, kind);
    case "Metadata":
      return toPartialObjectMetadata(obj, options.version);
  }
}

export function toTable(
  objects: readonly Record<string, unknown>[],
  kind: ServedKind,
  options: TableOptions,
): Record<string, unknown> {
  const now = options.now ?? Date.now();
  const columns = kind.resource.printerColumns;
  const custom = compile(columns);
  const cells =
    columns.length === 0
      ? (obj: Record<string, unknown>) => [metadataOf(obj).name ?? "", createdAt(obj)]
      : (obj: Record<string, unknown>) => [metadataOf(obj).name ?? "", ...custom.map((c) => columnCell(c, obj, now))];
  const rows = objects.map((obj) => ({ cells: cells(obj), object: rowObject(obj, kind, options) }));
  const definitions =
    columns.length === 0 ? [NAME_COLUMN, CREATED_AT_COLUMN] : [NAME_COLUMN, ...columns.map(definition)];
  const first = objects[0];
  const metadata =
    options.listMeta !== undefined
      ? listMetaOf(options.listMeta)
      : listMetaOf({ resourceVersion: first === undefined ? undefined : metadataOf(first).resourceVersion });
  return {
    kind: "Table",
    apiVersion: metaApiVersion(options.version),
    metadata,
    columnDefinitions: options.noHeaders === true ? null : definitions,
    // kube's default convertor appends rows to a nil slice, so an empty list encodes `rows: null` there.
    rows: rows.length === 0 && columns.length === 0 ? null : rows,
  };
}
