// A YAML body go-yaml v2 refuses, and the words it refuses it with. go-yaml's line numbers are odd and kube
// shows them as they are: a scanner error names the 1-based line it stopped on, a parser error the 0-based
// line of the offending token, and neither names line 0, so a mistake on the first line carries no line.

type YamlStage = "reader" | "scanner" | "parser";

export class YamlSyntaxError {
  constructor(
    readonly stage: YamlStage,
    readonly problem: string,
    /** 0-based lines of the problem and of what was being read when it showed. */
    readonly problemLine: number,
    readonly contextLine = 0,
  ) {}

  /** `yaml: line 3: did not find expected key`, as go-yaml's parser reports it. */
  get message(): string {
    let line = this.contextLine;
    if (this.problemLine !== 0) line = this.problemLine + (this.stage === "scanner" ? 1 : 0);
    return `yaml: ${line === 0 ? "" : `line ${line}: `}${this.problem}`;
  }
}

/** A failure while turning the parsed document into a value (go-yaml's decoder): no line, just the words. */
export class YamlDecodeError {
  constructor(readonly message: string) {}
}
