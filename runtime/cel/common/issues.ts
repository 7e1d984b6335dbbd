// Compile-time problems (parse and type-check errors), printed as cel-go prints them, because
// Kubernetes returns that text to users: `ERROR: <input>:1:5: message`, the source line, and a
// caret under the column.

export interface CelIssue {
  readonly message: string;
  /** Code-point offset in the source, or -1 when the problem has no position. */
  readonly offset: number;
  readonly exprId?: number;
}

export class CelIssues {
  constructor(
    readonly source: string,
    readonly issues: readonly CelIssue[],
    /** The description cel-go prints in place of a file name. */
    readonly description = "<input>",
  ) {}

  /**
   * cel-go's Errors.ToDisplayString(): the source line with tabs shown as spaces, a dot for each column
   * before the error (a full-width dot for a non-ASCII character) and a caret (full-width under a non-ASCII
   * character).
   */
  toDisplayString(): string {
    const lines = this.source.split("\n");
    const out: string[] = [];
    for (const issue of this.issues) {
      if (issue.offset < 0) {
        out.push(`ERROR: ${this.description}:-1:0: ${issue.message}`);
        continue;
      }
      const { line, column } = locate(this.source, issue.offset);
      const snippet = [...(lines[line - 1] ?? "").replace(/\t/g, " ")];
      const marker = snippet
        .slice(0, column)
        .map((ch) => (isWide(ch) ? "\uFF0E" : "."))
        .join("");
      const caret = isWide(snippet[column]) ? "\uFF3E" : "^";
      out.push(
        `ERROR: ${this.description}:${line}:${column + 1}: ${issue.message}\n | ${snippet.join("")}\n | ${marker}${caret}`,
      );
    }
    return out.join("\n");
  }
}

/** 1-based line and 0-based column (in code points) of a code-point offset. */
export function locate(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let column = 0;
  let i = 0;
  for (const ch of source) {
    if (i === offset) break;
    if (ch === "\n") {
      line++;
      column = 0;
    } else column++;
    i++;
  }
  return { line, column };
}

/** cel-go marks any non-ASCII character as wide. */
function isWide(ch: string | undefined): boolean {
  return ch !== undefined && (ch.codePointAt(0) ?? 0) >= 0x80;
}
