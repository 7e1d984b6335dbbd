import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createAuditSetup, parseAuditFlags } from "../../../runtime/audit/audit-flags.js";
import { parseServeFlags } from "../../../runtime/cli/serve-flags.js";

const data = join(import.meta.dirname, "../../data/audit");

describe("audit flags", () => {
  const dir = mkdtempSync(join(tmpdir(), "kapi-audit-flags-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("takes kube-apiserver's defaults", () => {
    const flags = parseAuditFlags({ "audit-log-path": "a.log", "audit-webhook-config-file": "hook.kubeconfig" });
    expect(flags?.log).toMatchObject({
      format: "json",
      maxSizeMB: 100,
      maxBackups: 100,
      maxAgeDays: 366,
      compress: false,
      mode: "blocking",
    });
    expect(flags?.log?.batch).toMatchObject({ bufferSize: 10000, maxBatchSize: 1, throttleEnable: false });
    expect(flags?.webhook).toMatchObject({ mode: "batch", initialBackoffMs: 10_000 });
    expect(flags?.webhook?.batch).toMatchObject({
      bufferSize: 10000,
      maxBatchSize: 400,
      maxBatchWaitMs: 30_000,
      throttleEnable: true,
      throttleQPS: 10,
      throttleBurst: 15,
    });
    expect(flags?.webhook?.truncate).toEqual({
      enabled: false,
      maxBatchSize: 10 * 1024 * 1024,
      maxEventSize: 100 * 1024,
    });
  });

  it("refuses bad values with kube-apiserver's texts, all at once", () => {
    // kube-apiserver v1.36.2 with these flags: "command failed" err="[…]".
    expect(() =>
      parseServeFlags([
        "--audit-log-path",
        "a.log",
        "--audit-log-mode=fast",
        "--audit-log-maxsize=-1",
        "--audit-log-format=xml",
      ]),
    ).toThrow(
      '[invalid audit log mode fast, allowed modes are "batch,blocking,blocking-strict", invalid audit log format xml, allowed formats are "legacy,json", --audit-log-maxsize -1 can\'t be a negative number]',
    );
    expect(() => parseAuditFlags({ "audit-webhook-config-file": "k", "audit-webhook-batch-max-size": "0" })).toThrow(
      "invalid audit batch webhook max batch size 0, must be a positive number",
    );
    expect(() =>
      parseAuditFlags({
        "audit-log-path": "a",
        "audit-log-truncate-max-event-size": "10",
        "audit-log-truncate-max-batch-size": "5",
      }),
    ).toThrow("invalid audit truncate log max batch size 5, must be greater than max event size (10)");
  });

  it("fails the start on an invalid policy with kube's text, before creating the log", () => {
    const log = join(dir, "never.log");
    const flags = parseAuditFlags({ "audit-policy-file": join(data, "invalid-policy.yaml"), "audit-log-path": log });
    const warnings: string[] = [];
    expect(() => flags && createAuditSetup(flags, undefined, (w) => warnings.push(w))).toThrow(
      `loading audit policy file: [rules[0].nonResourceURLs[1]: Invalid value: "y": non-resource URL rules must begin with a '/' character, rules[0].nonResourceURLs: Invalid value: ["/x","y"]: rules cannot apply to both regular resources and non-resource URLs, rules[1].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse", rules[1].resources.resourceNames: Invalid value: ["a"]: using resourceNames requires at least one resource]: from file ${join(data, "invalid-policy.yaml")}`,
    );
    expect(warnings).toEqual([
      'Audit policy contains errors, falling back to lenient decoding: strict decoding error: unknown field "rules[0].color"',
    ]);
    expect(existsSync(log)).toBe(false);
  });

  it("creates the log file but audits nothing without a policy, as kube", () => {
    const log = join(dir, "created.log");
    const flags = parseAuditFlags({ "audit-log-path": log });
    expect(flags && createAuditSetup(flags, undefined, () => {})).toBeUndefined();
    expect(existsSync(log)).toBe(true);
  });
});
