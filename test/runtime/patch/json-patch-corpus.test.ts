// The json-patch-tests suite (tests.json and spec_tests.json) through decodeJsonPatch and applyJsonPatch
// at kube's default fieldValidation (Warn). Where kube-apiserver answers otherwise than the suite, because
// of the library it applies patches with (gopkg.in/evanphx/json-patch.v4), the case is listed in
// `deviations` with kube's outcome, which is what is checked. Disabled cases stay disabled. Runs where
// ../shared/corpora exists; a user's clone skips it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { StatusError } from "../../../runtime/errors/status-error.js";
import { applyJsonPatch, decodeJsonPatch } from "../../../runtime/patch/json-patch.js";

const corpus = join(import.meta.dirname, "../../../../shared/corpora/json-patch-tests");

interface Case {
  comment?: string;
  doc: unknown;
  patch: unknown;
  expected?: unknown;
  error?: string;
  disabled?: boolean;
}

/** What kube-apiserver makes of a case: a document, or a failure whose library message is given. */
type Outcome = { result: unknown } | { failure: string };

interface Deviation {
  outcome: Outcome;
  reason: string;
}

const rootAdd = 'the library\'s add finds no location for the path "" (only replace and test take it)';

/** Keyed by file and index; the comment is checked too, so a reordered suite fails loudly. */
const deviations: Record<string, Deviation & { comment: string }> = {
  "tests.json#11": {
    comment: "replace object document with array document?",
    outcome: { failure: 'add operation does not apply: doc is missing path: "": missing value' },
    reason: rootAdd,
  },
  "tests.json#12": {
    comment: "replace array document with object document?",
    outcome: { failure: 'add operation does not apply: doc is missing path: "": missing value' },
    reason: rootAdd,
  },
  "tests.json#19": {
    comment: "",
    outcome: { result: { bar: [1, 2, "5"] } },
    reason: "negative indices are on (SupportNegativeIndices); for add, -1 is the end of the array",
  },
  "tests.json#63": {
    comment: "replacing the root of the document is possible with add",
    outcome: { failure: 'add operation does not apply: doc is missing path: "": missing value' },
    reason: rootAdd,
  },
  "tests.json#77": {
    comment: "missing 'value' parameter to add",
    outcome: { result: [1, null] },
    reason: "an operation without value adds null",
  },
  "tests.json#78": {
    comment: "missing 'value' parameter to replace",
    outcome: { result: [null] },
    reason: "an operation without value replaces with null",
  },
  "tests.json#79": {
    comment: "missing 'value' parameter to test",
    outcome: { result: [null] },
    reason: "a test without value passes where the document holds null",
  },
  "tests.json#82": {
    comment: "missing from location to copy",
    outcome: { result: { foo: null } },
    reason: "a missing object member reads as null, so copy from it copies null",
  },
  "tests.json#87": {
    comment: "test with bad array number that has leading zeros",
    outcome: { result: ["foo", "bar"] },
    reason: 'indices are read by strconv.Atoi, which takes "00" as 0',
  },
  "tests.json#88": {
    comment: "test with bad array number that has leading zeros",
    outcome: { result: ["foo", "bar"] },
    reason: 'indices are read by strconv.Atoi, which takes "01" as 1',
  },
};

function run(c: Case): Outcome {
  try {
    return { result: applyJsonPatch(c.doc, decodeJsonPatch(JSON.stringify(c.patch), "Warn")) };
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
    return { failure: e.cause instanceof Error ? e.cause.message : e.message };
  }
}

function agreesWithSuite(c: Case, outcome: Outcome): boolean {
  return "error" in c ? "failure" in outcome : "result" in outcome && isDeepStrictEqual(outcome.result, c.expected);
}

const files = ["tests.json", "spec_tests.json"];
const load = (file: string): Case[] => JSON.parse(readFileSync(join(corpus, file), "utf8"));

// Collection runs even for skipped suites, so the corpus is only read when it is there.
describe.skipIf(!existsSync(corpus))("json-patch-tests corpus", () => {
  const counts = new Map<string, { enabled: number; agree: number; deviate: number }>();

  for (const file of files) {
    const cases = existsSync(corpus) ? load(file) : [];
    const count = { enabled: 0, agree: 0, deviate: 0 };
    counts.set(file, count);
    describe(file, () => {
      cases.forEach((c, i) => {
        const name = `#${i} ${c.comment ?? c.error ?? ""}`;
        if (c.disabled === true) {
          it.skip(name, () => {});
          return;
        }
        count.enabled++;
        const deviation = deviations[`${file}#${i}`];
        it(name, () => {
          const doc = structuredClone(c.doc);
          const outcome = run(c);
          expect(c.doc).toEqual(doc);
          if (deviation === undefined) {
            expect(agreesWithSuite(c, outcome), JSON.stringify(outcome)).toBe(true);
            count.agree++;
            return;
          }
          expect(c.comment ?? "").toBe(deviation.comment);
          expect(agreesWithSuite(c, outcome)).toBe(false);
          expect(outcome).toEqual(deviation.outcome);
          count.deviate++;
        });
      });
    });
  }

  it("lists only cases that exist and deviate", () => {
    for (const key of Object.keys(deviations)) {
      const [file = "", index = ""] = key.split("#");
      expect(load(file)[Number(index)]).toBeDefined();
    }
  });

  afterAll(() => {
    for (const [file, c] of counts) {
      console.log(
        `json-patch-tests ${file}: ${c.agree} of ${c.enabled} enabled cases as the suite expects, ${c.deviate} as kube deviates`,
      );
    }
  });
});
