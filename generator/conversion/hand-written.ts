// Finds the hand-written conversion functions of a group: the exports of runtime/conversion/functions/<groupDir>.ts.
// Only declarations are read (no type checking), so a half-written module never breaks generation.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

/** Names exported by the hand-written conversion module of a group directory ("autoscaling", "storage.k8s.io"). */
export type HandWrittenLookup = (groupDir: string) => ReadonlySet<string>;

function isExported(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

/** Exported functions, constants and re-exported names of a TypeScript module's text. */
export function exportedNames(fileName: string, text: string): Set<string> {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name && isExported(statement)) {
      names.add(statement.name.text);
    } else if (ts.isVariableStatement(statement) && isExported(statement)) {
      for (const decl of statement.declarationList.declarations) {
        if (ts.isIdentifier(decl.name)) names.add(decl.name.text);
      }
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
    ) {
      for (const element of statement.exportClause.elements) names.add(element.name.text);
    }
  }
  return names;
}

/** Reads runtime/conversion/functions/<groupDir>.ts below `dir`; a group without a module has no hand-written functions. */
export function handWrittenIn(dir: string): HandWrittenLookup {
  const cache = new Map<string, Set<string>>();
  return (groupDir) => {
    let names = cache.get(groupDir);
    if (!names) {
      const path = join(dir, `${groupDir}.ts`);
      names = existsSync(path) ? exportedNames(path, readFileSync(path, "utf8")) : new Set();
      cache.set(groupDir, names);
    }
    return names;
  };
}
