// cel-go's own checker tests (checker/checker_test.go, as @bufbuild/cel-spec ships them): each expression
// is compiled in cel-go's test environment (its protobuf test messages as object types) and compared with
// cel-go's checked debug string and type, or with its error text. Cases needing protobuf wrapper types,
// enums or unknown messages are skipped with the reason.

import { tests } from "@bufbuild/cel-spec/testdata/checking.js";
import type { SerializedIncrementalTest, SerializedIncrementalTestSuite } from "@bufbuild/cel-spec/testdata/tests.js";
import type { JsonObject } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { formatCheckedType } from "../../../../runtime/cel/checker/format-type.js";
import { checkedAdorner, toDebugString } from "../../../../runtime/cel/common/debug-string.js";
import type { CelLibrary } from "../../../../runtime/cel/common/decls.js";
import { CelIssues } from "../../../../runtime/cel/common/issues.js";
import { CelEnv } from "../../../../runtime/cel/env.js";
import { optionalsLibrary } from "../../../../runtime/cel/library/optionals.js";
import { NeedsProtobuf } from "../conformance/proto-json.js";
import {
  celGoCheckerTestLibrary,
  celGoTestDecls,
  celGoTestMessagesLibrary,
  standardLibraryWithoutCrossTypeComparisons,
} from "./cel-go-test-env.js";

interface Case {
  readonly name: string;
  readonly test: SerializedIncrementalTest;
}

function flatten(suite: SerializedIncrementalTestSuite): SerializedIncrementalTest[] {
  return [...(suite.tests ?? []), ...(suite.suites ?? []).flatMap(flatten)];
}

const cases: Case[] = flatten(tests).map((test, i) => ({ name: `${i} ${test.original.expr}`, test }));

/** Why a case cannot run here, or undefined when it can. */
function skipReason(test: SerializedIncrementalTest): string | undefined {
  const expr = test.original.expr;
  if (/_wrapper|google\.protobuf\.(Any|[A-Z][a-z0-9]*Value)\b/.test(expr)) return "needs protobuf wrapper types";
  if (expr.includes("NestedEnum")) return "needs protobuf enums";
  if (test.error?.startsWith("ERROR: :")) {
    return "cel-go's generator parsed it without optional syntax; its cel-go expectation is a unit test here";
  }
  // The generator ran without cross-type numeric comparisons, which cel-go's comprehension scopes forget.
  if (expr === "lists.filter(x, x > 1.5)") return "cel-go drops its overload filter inside comprehension scopes";
  try {
    celGoTestDecls((test.original.typeEnv ?? []) as JsonObject[]);
  } catch (e) {
    if (e instanceof NeedsProtobuf) return `needs protobuf: ${e.message}`;
    throw e;
  }
  return undefined;
}

/** cel-go prints a call's candidate overloads in declaration order; compare them as sets. */
function sortOverloads(debug: string): string {
  return debug.replace(/\^([\w.@|]+)/g, (_m, ids: string) => `^${ids.split("|").sort().join("|")}`);
}

function compile(test: SerializedIncrementalTest): ReturnType<CelEnv["compile"]> {
  const { variables, functions } = celGoTestDecls((test.original.typeEnv ?? []) as JsonObject[]);
  const libraries: CelLibrary[] = [
    standardLibraryWithoutCrossTypeComparisons,
    optionalsLibrary,
    celGoCheckerTestLibrary,
    celGoTestMessagesLibrary,
    { name: "type_env", functions },
  ];
  const container = test.original.container;
  const env = new CelEnv({ libraries, variables, ...(typeof container === "string" ? { container } : {}) });
  return env.compile(test.original.expr);
}

describe("cel-go checker tests", () => {
  for (const { name, test } of cases) {
    const reason = skipReason(test);
    if (reason !== undefined) {
      it.skip(`${name} (${reason})`, () => {});
      continue;
    }
    it(name, () => {
      const result = compile(test);
      if (test.error !== undefined) {
        expect(result).toBeInstanceOf(CelIssues);
        expect((result as CelIssues).toDisplayString()).toBe(test.error);
        return;
      }
      if (result instanceof CelIssues) throw new Error(result.toDisplayString());
      const debug = toDebugString(result.expr, checkedAdorner(result, formatCheckedType));
      expect(sortOverloads(debug)).toBe(sortOverloads(test.checkedAst ?? ""));
      expect(formatCheckedType(result.types.get(result.expr.id) ?? { kind: "error" })).toBe(test.type);
    });
  }
});
