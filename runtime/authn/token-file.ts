// The static token file (`--token-auth-file`), read as kube-apiserver reads it (k8s.io/apiserver's
// tokenfile.NewCSV over Go's encoding/csv with a variable number of fields): `token,user,uid[,"group1,group2"]`
// a line; quoted fields may hold commas, `""` and line breaks; blank lines are skipped; a record of fewer than
// three fields stops the start; a record with an empty token is skipped and a repeated token replaces the
// earlier one (both with a warning); columns after the fourth are ignored.
import { readFileSync } from "node:fs";
import type { UserInfo } from "../access/user-info.js";
import { StaticTokenAuthenticator } from "./static-tokens.js";

/** A syntax error, worded as Go's csv.ParseError. */
export class CsvParseError extends Error {
  override name = "CsvParseError";
}

const bareQuote = 'bare " in non-quoted-field';
const quoteProblem = 'extraneous or missing " in quoted-field';

function parseError(startLine: number, line: number, column: number, problem: string): CsvParseError {
  const where = `parse error on line ${line}, column ${column}: ${problem}`;
  return new CsvParseError(startLine === line ? where : `record on line ${startLine}; ${where}`);
}

/** Lines as Go's csv reader sees them: each keeps its "\n", "\r\n" ends become "\n", a last "\r" is dropped. */
function goLines(text: string): string[] {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  return lines.map((line) => (line.endsWith("\r\n") ? `${line.slice(0, -2)}\n` : line.replace(/\r$/, "")));
}

const bytes = (text: string) => Buffer.byteLength(text);
const newlineLength = (line: string) => (line.endsWith("\n") ? 1 : 0);

/** The records of a CSV text, one at a time so that errors come in file order, as Go's Reader.Read gives them. */
export function* csvRecords(text: string): Generator<string[]> {
  const lines = goLines(text);
  let lineNumber = 0;
  const readLine = (): string | undefined => {
    lineNumber++;
    return lines[lineNumber - 1];
  };
  for (;;) {
    let line = readLine();
    while (line === "\n" || line === "") line = readLine();
    if (line === undefined) return;
    const startLine = lineNumber;
    let position = { line: lineNumber, column: 1 };
    const record: string[] = [];
    for (;;) {
      if (!line.startsWith('"')) {
        const comma = line.indexOf(",");
        const field = comma >= 0 ? line.slice(0, comma) : line.slice(0, line.length - newlineLength(line));
        const quote = field.indexOf('"');
        if (quote >= 0)
          throw parseError(startLine, lineNumber, position.column + bytes(field.slice(0, quote)), bareQuote);
        record.push(field);
        if (comma < 0) break;
        position = { ...position, column: position.column + bytes(field) + 1 };
        line = line.slice(comma + 1);
        continue;
      }
      line = line.slice(1);
      position = { ...position, column: position.column + 1 };
      let field = "";
      let fieldDone = false;
      let recordDone = false;
      while (!fieldDone) {
        const quote = line.indexOf('"');
        if (quote >= 0) {
          field += line.slice(0, quote);
          position = { ...position, column: position.column + bytes(line.slice(0, quote)) + 1 };
          line = line.slice(quote + 1);
          if (line.startsWith('"')) {
            field += '"';
            line = line.slice(1);
            position = { ...position, column: position.column + 1 };
          } else if (line.startsWith(",")) {
            line = line.slice(1);
            position = { ...position, column: position.column + 1 };
            fieldDone = true;
          } else if (line.length === newlineLength(line)) {
            fieldDone = true;
            recordDone = true;
          } else {
            throw parseError(startLine, lineNumber, position.column - 1, quoteProblem);
          }
        } else if (line.length > 0) {
          field += line;
          position = { ...position, column: position.column + bytes(line) };
          line = readLine() ?? "";
          if (line.length > 0) position = { line: position.line + 1, column: 1 };
        } else {
          throw parseError(startLine, position.line, position.column, quoteProblem);
        }
      }
      record.push(field);
      if (recordDone) break;
    }
    yield record;
  }
}

/**
 * The tokens of a token file, token to user; throws at the first bad record with kube's text. `warn` hears of
 * records skipped or replaced (kube logs them).
 */
export function readTokenFile(path: string, warn: (message: string) => void = () => {}): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  let recordNumber = 0;
  for (const record of csvRecords(readFileSync(path, "utf8"))) {
    const [token = "", name = "", uid = "", groups] = record;
    if (record.length < 3) {
      throw new Error(
        `token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`,
      );
    }
    recordNumber++;
    if (token === "") {
      warn(`empty token has been found in token file '${path}', record number '${recordNumber}'`);
      continue;
    }
    if (tokens.has(token))
      warn(`duplicate token has been found in token file '${path}', record number '${recordNumber}'`);
    tokens.set(token, {
      name,
      groups: groups === undefined ? [] : groups.split(","),
      ...(uid === "" ? {} : { uid }),
    });
  }
  return tokens;
}

export function tokenFileAuthenticator(path: string, warn?: (message: string) => void): StaticTokenAuthenticator {
  return new StaticTokenAuthenticator(readTokenFile(path, warn));
}
