// The options every write shares, validated as kube validates them. Checked against kube-apiserver v1.36.2:
// `dryRun=All&dryRun=All` is a dry run, `dryRun=All&dryRun=` is refused naming both values.
import { describe, expect, it } from "vitest";
import { StatusError } from "../../../runtime/errors/status-error.js";
import { parseDryRun, parseWriteQuery } from "../../../runtime/handlers/write-options.js";

function refusal(run: () => unknown): { code: number; message: string } | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (!(error instanceof StatusError)) throw error;
    return { code: error.code, message: error.status.message ?? "" };
  }
}

describe("dryRun", () => {
  it("is a dry run for All, however often it is given", () => {
    expect(parseWriteQuery(new URLSearchParams("dryRun=All"), "CreateOptions").dryRun).toBe(true);
    expect(parseWriteQuery(new URLSearchParams("dryRun=All&dryRun=All"), "CreateOptions").dryRun).toBe(true);
    expect(parseDryRun(["All", "All"], "DeleteOptions")).toBe(true);
    expect(parseDryRun([], "DeleteOptions")).toBe(false);
  });

  it("refuses any other value, naming every value given", () => {
    expect(refusal(() => parseWriteQuery(new URLSearchParams("dryRun=All&dryRun="), "CreateOptions"))).toEqual({
      code: 422,
      message:
        'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["All",""]: supported values: "All"',
    });
    expect(refusal(() => parseDryRun([""], "DeleteOptions"))).toEqual({
      code: 422,
      message: 'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: [""]: supported values: "All"',
    });
  });
});
