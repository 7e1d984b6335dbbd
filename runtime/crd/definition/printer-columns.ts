// additionalPrinterColumns: a name, one of the column types, an optional known format, and a simple
// JSON path (reported at `JSONPath`, the Go field's name, as kube does).
import { type FieldError, invalid, required } from "../../errors/field-error.js";
import { child } from "../../errors/field-path.js";
import type { Column } from "./internal-spec.js";
import { simpleJsonPathErrors } from "./json-paths.js";

const columnTypes = ["boolean", "date", "integer", "number", "string"];
const columnFormats = ["byte", "date", "date-time", "double", "float", "int32", "int64", "password"];

export function validateColumn(column: Column, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (column.name === "") errs.push(required(child(path, "name")));
  const typeDetail = `must be one of ${columnTypes.join(",")}`;
  if (column.type === "") errs.push(required(child(path, "type"), typeDetail));
  else if (column.type !== undefined && !columnTypes.includes(column.type)) {
    errs.push(invalid(child(path, "type"), column.type, typeDetail));
  }
  if (column.format !== "" && !columnFormats.includes(column.format)) {
    errs.push(invalid(child(path, "format"), column.format, `must be one of ${columnFormats.join(",")}`));
  }
  const jsonPath = child(path, "JSONPath");
  if (column.jsonPath === "") errs.push(required(jsonPath));
  else if (column.jsonPath !== undefined) errs.push(...simpleJsonPathErrors(column.jsonPath, jsonPath));
  return errs;
}

export function validateColumns(columns: readonly Column[], path: string): FieldError[] {
  return columns.flatMap((c, i) => validateColumn(c, `${path}[${i}]`));
}
