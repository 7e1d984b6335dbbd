// What is wrong with a value against its schema, and the text kube prints for a list of them
// (structured-merge-diff's ValidationErrors): one problem as `path: message`, several one per line.
import type { Path } from "../fieldpath/path-element.js";
import { pathText } from "../fieldpath/path-string.js";

export interface TypedProblem {
  readonly path: Path;
  readonly message: string;
}

function problemText(p: TypedProblem): string {
  return p.path.length === 0 ? p.message : `${pathText(p.path)}: ${p.message}`;
}

export function typedProblemsText(problems: readonly TypedProblem[]): string {
  if (problems.length === 1) return problemText(problems[0] as TypedProblem);
  return ["errors:", ...problems.map((p) => `  ${problemText(p)}`)].join("\n");
}
