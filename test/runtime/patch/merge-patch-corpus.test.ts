// The RFC 7396 examples (Appendix A and the worked examples of sections 1 and 3) through applyMergePatch.
// Runs where ../shared/corpora exists; a user's clone skips it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyMergePatch } from "../../../runtime/patch/merge-patch.js";

const examples = join(import.meta.dirname, "../../../../shared/corpora/json-merge-patch/rfc7396-examples.json");

interface Example {
  comment: string;
  doc: unknown;
  patch: unknown;
  expected: unknown;
}

// Collection runs even for skipped suites, so the corpus is only read when it is there.
describe.skipIf(!existsSync(examples))("RFC 7396 merge patch examples", () => {
  const cases: Example[] = existsSync(examples) ? JSON.parse(readFileSync(examples, "utf8")) : [];

  it("has the 17 examples", () => {
    expect(cases).toHaveLength(17);
  });

  for (const c of cases) {
    it(c.comment, () => {
      const doc = structuredClone(c.doc);
      expect(applyMergePatch(c.doc, c.patch)).toEqual(c.expected);
      expect(c.doc).toEqual(doc);
    });
  }
});
