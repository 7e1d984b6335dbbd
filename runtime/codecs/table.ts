// meta.k8s.io Table: what `kubectl get` asks for. Kinds with printer columns in their schema are converted as
// kube-apiserver converts a CustomResourceDefinition's additionalPrinterColumns (a Name column, then one column per
// JSONPath); a column may name a printer cell instead (runtime/printers/, resolved through generated/printers.ts),
// as kube's Go table printers compute cells, and such columns are the whole row, Name column included (Events print
// it last). Kinds without columns get kube's default convertor (Name, Created At).
import { printerCells } from "../../generated/printers.js";
import type { PrinterCell } from "../printers/printer-cell.js";
import { humanDuration, parseRfc3339, ZERO_TIME } from "../printers/time.js";
import type { PrinterColumn } from "../registry/kind-record.js";
import type { ServedKind } from "../registry/served-kind.js";
import { findJsonPath, type JsonPath, parseJsonPath, printJsonPathValue } from "./json-path.js";
import { listMetaOf, type MetaVersion, metaApiVersion, toPartialObjectMetadata } from "./partial-object-metadata.js";

export { humanDuration, parseRfc3339 } from "../printers/time.js";

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

// ObjectMeta's field documentation, which kube's convertors use for these two columns.
const NAME_COLUMN: ColumnDefinition = {
  name: "Name",
  type: "string",
  format: "name",
  description:
    "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names",
  priority: 0,
};

const CREATED_AT_COLUMN: ColumnDefinition = {
  name: "Created At",
  type: "date",
  format: "",
  description:
    "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
  priority: 0,
};

interface CompiledColumn {
  column: PrinterColumn;
  /** Undefined when the JSONPath does not parse: every cell of the column is then null. */
  path: JsonPath | undefined;
  /** The printer cell the column names, if it names one. */
  cell: PrinterCell | undefined;
}

const compiled = new WeakMap<readonly PrinterColumn[], CompiledColumn[]>();

function compile(columns: readonly PrinterColumn[]): CompiledColumn[] {
  let out = compiled.get(columns);
  if (out === undefined) {
    out = columns.map((column) => {
      const cell = column.cell === undefined ? undefined : printerCells[column.cell];
      if (column.jsonPath === undefined) return { column, path: undefined, cell };
      try {
        return { column, path: parseJsonPath(column.jsonPath), cell };
      } catch {
        return { column, path: undefined, cell };
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
    description: c.description ?? `Custom resource definition column (in JSONPath format): ${c.jsonPath ?? ""}`,
    priority: c.priority ?? 0,
  };
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
  if (c.cell !== undefined) return c.cell(obj, { now });
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
  // Columns computed by printer cells are the whole row, their own Name column included.
  const placesName = columns.some((c) => c.cell !== undefined);
  const nameCell = (obj: Record<string, unknown>) => (placesName ? [] : [metadataOf(obj).name ?? ""]);
  const cells =
    columns.length === 0
      ? (obj: Record<string, unknown>) => [metadataOf(obj).name ?? "", createdAt(obj)]
      : (obj: Record<string, unknown>) => [...nameCell(obj), ...custom.map((c) => columnCell(c, obj, now))];
  const rows = objects.map((obj) => ({ cells: cells(obj), object: rowObject(obj, kind, options) }));
  const definitions =
    columns.length === 0
      ? [NAME_COLUMN, CREATED_AT_COLUMN]
      : [...(placesName ? [] : [NAME_COLUMN]), ...columns.map(definition)];
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
