// What planning and evaluating a checked expression needs, apart from the environment that compiles it: the
// declarations the planner resolves names against, and the program it returns.

import type { CelType } from "./cel-types.js";
import type { FunctionDecl } from "./decls.js";
import type { CelValue } from "./values.js";

/** The declarations of an environment the planner reads (a CelEnv has them). */
export interface Declarations {
  readonly functions: ReadonlyMap<string, FunctionDecl>;
  readonly variables: ReadonlyMap<string, CelType>;
  readonly types: ReadonlyMap<string, CelType>;
  /** Namespace that unqualified names resolve in (cel-go's container). */
  readonly container: string;
}

export interface ProgramOptions {
  /** Stop evaluation with an error once the run-time cost exceeds this. */
  readonly costLimit?: number;
  /** `has()` on a value without fields is an error, as in cel-go's conformance setup; Kubernetes answers false. */
  readonly errorOnBadPresenceTest?: boolean;
}

/** Variables for one evaluation: a name → value lookup; absent names are errors. */
export type Activation = (name: string) => CelValue | undefined;

export interface EvalResult {
  /** The result, or a CelError. */
  readonly value: CelValue;
  /** Run-time cost spent. */
  readonly cost: number;
}

export interface Program {
  eval(activation: Activation): EvalResult;
}
