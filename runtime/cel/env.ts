// A CEL environment: declarations in, compiled programs out. compile = parse (with the libraries'
// macros) → check (against the declared variables, functions and types); program = plan the checked
// tree into an evaluator with a cost tracker. Kubernetes builds one environment per use (schema rules,
// admission policies, authorizer match conditions) from the libraries of its compatibility version.

import { check } from "./checker/checker.js";
import type { CheckedAst, ParsedAst } from "./common/ast.js";
import type { CelType } from "./common/cel-types.js";
import { type CelLibrary, type FunctionDecl, type MacroDecl, macroKey, type VariableDecl } from "./common/decls.js";
import type { Program, ProgramOptions } from "./common/evaluation.js";
import { type CelIssue, CelIssues } from "./common/issues.js";
import { ResolvingTypes } from "./common/resolving-types.js";
import { plan } from "./interpreter/planner.js";
import { parse } from "./parser/parser.js";

export interface EnvOptions {
  readonly libraries: readonly CelLibrary[];
  readonly variables?: readonly VariableDecl[];
  /** Namespace that unqualified names resolve in (cel-go's container). */
  readonly container?: string;
}

export class CelEnv {
  readonly functions: ReadonlyMap<string, FunctionDecl>;
  readonly macros: ReadonlyMap<string, MacroDecl>;
  readonly variables: ReadonlyMap<string, CelType>;
  readonly types: ReadonlyMap<string, CelType>;
  readonly enableOptionalSyntax: boolean;
  readonly container: string;
  readonly validators: readonly ((ast: CheckedAst) => readonly CelIssue[])[];

  constructor(readonly options: EnvOptions) {
    const functions = new Map<string, FunctionDecl>();
    const macros = new Map<string, MacroDecl>();
    const variables = new Map<string, CelType>();
    const types = new Map<string, CelType>();
    let optional = false;
    for (const lib of options.libraries) {
      for (const fn of lib.functions ?? []) {
        const known = functions.get(fn.name);
        functions.set(fn.name, known ? { ...known, overloads: [...known.overloads, ...fn.overloads] } : fn);
      }
      for (const m of lib.macros ?? []) macros.set(macroKey(m.name, m.member, m.argCount), m);
      for (const v of lib.variables ?? []) variables.set(v.name, v.type);
      for (const t of lib.types ?? []) if ("name" in t) types.set(t.name, t);
      optional ||= lib.parserOptions?.enableOptionalSyntax === true;
    }
    for (const v of options.variables ?? []) variables.set(v.name, v.type);
    this.functions = functions;
    this.macros = macros;
    this.variables = variables;
    const resolvers = options.libraries.flatMap((lib) => (lib.resolveType === undefined ? [] : [lib.resolveType]));
    this.types = resolvers.length === 0 ? types : new ResolvingTypes(types, resolvers);
    this.enableOptionalSyntax = optional;
    this.container = options.container ?? "";
    this.validators = options.libraries.flatMap((lib) => lib.validators ?? []);
  }

  /** A new environment with more variables (same libraries). */
  extend(variables: readonly VariableDecl[]): CelEnv {
    return new CelEnv({ ...this.options, variables: [...(this.options.variables ?? []), ...variables] });
  }

  parse(source: string): ParsedAst | CelIssues {
    return parse(source, { macros: this.macros, enableOptionalSyntax: this.enableOptionalSyntax });
  }

  check(ast: ParsedAst): CheckedAst | CelIssues {
    const checked = check(ast, this);
    if (checked instanceof CelIssues) return checked;
    const issues = this.validators.flatMap((validate) => validate(checked));
    if (issues.length === 0) return checked;
    // cel-go prints issues by position, whichever validator found them.
    return new CelIssues(
      ast.sourceInfo.source,
      [...issues].sort((a, b) => a.offset - b.offset),
    );
  }

  /** Parses and checks; the result is a checked tree or the issues found. */
  compile(source: string): CheckedAst | CelIssues {
    const parsed = this.parse(source);
    return parsed instanceof CelIssues ? parsed : this.check(parsed);
  }

  /** An evaluator for a checked (or, unchecked, a parsed) tree. */
  program(ast: CheckedAst | ParsedAst, options: ProgramOptions = {}): Program {
    return plan(ast, this, options);
  }
}
