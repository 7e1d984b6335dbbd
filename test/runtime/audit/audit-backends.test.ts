import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { createAuditSetup, parseAuditFlags } from "../../../runtime/audit/audit-flags.js";
import type { AuditEvent } from "../../../runtime/audit/audit-sink.js";
import { legacyLine } from "../../../runtime/audit/log-backend.js";
import { RotatingFile } from "../../../runtime/audit/rotating-file.js";
import { truncateBackend } from "../../../runtime/audit/truncate-backend.js";

const event = (over: Partial<AuditEvent> = {}): AuditEvent => ({
  kind: "Event",
  apiVersion: "audit.k8s.io/v1",
  level: "Metadata",
  auditID: "5d6a1f3c-0000-4000-8000-000000000001",
  stage: "ResponseComplete",
  requestURI: "/api/v1/namespaces/b-rr/configmaps",
  verb: "list",
  user: { username: "admin", groups: ["system:masters", "system:authenticated"] },
  sourceIPs: ["127.0.0.1"],
  userAgent: "curl/7.88.1",
  objectRef: { resource: "configmaps", namespace: "b-rr", apiVersion: "v1" },
  responseStatus: { metadata: {}, code: 200 },
  requestReceivedTimestamp: "2026-11-28T10:42:53.808025Z",
  stageTimestamp: "2026-11-28T10:42:53.812558Z",
  ...over,
});

describe("audit backends", () => {
  const dir = mkdtempSync(join(tmpdir(), "kapi-audit-backends-"));
  const policy = join(dir, "policy.yaml");
  writeFileSync(policy, "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes kube's legacy one-line format", () => {
    expect(legacyLine(event())).toBe(
      '2026-11-28T10:42:53.808025Z AUDIT: id="5d6a1f3c-0000-4000-8000-000000000001" stage="ResponseComplete" ip="127.0.0.1" method="list" user="admin" groups="\\"system:masters\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="curl/7.88.1" namespace="b-rr" uri="/api/v1/namespaces/b-rr/configmaps" response="200"',
    );
    const { objectRef: _ref, responseStatus: _status, ...bare } = event();
    const refused: AuditEvent = {
      ...bare,
      stage: "RequestReceived",
      user: {},
      requestReceivedTimestamp: "2026-11-28T10:42:53.800000Z",
    };
    expect(legacyLine(refused)).toContain("2026-11-28T10:42:53.8Z AUDIT: ");
    expect(legacyLine(refused)).toContain('user="<none>" groups="<none>"');
    expect(legacyLine(refused)).toContain('namespace="<none>"');
    expect(legacyLine(refused)).toMatch(/response="<deferred>"$/);
  });

  it("writes the legacy lines kube-apiserver wrote for an impersonated request and a refused one", () => {
    // kube-apiserver v1.36.2 --audit-log-format=legacy; kube prints its nanosecond clock, kapi has microseconds.
    const impersonated = event({
      auditID: "6e873ab9-dad8-4c53-b475-43f5ad71b812",
      requestReceivedTimestamp: "2026-11-28T11:22:00.215253Z",
      responseStatus: { metadata: {}, code: 403 },
      impersonatedUser: { username: "b-user", groups: ["g1", "system:authenticated"] },
    });
    expect(legacyLine(impersonated)).toBe(
      '2026-11-28T11:22:00.215253Z AUDIT: id="6e873ab9-dad8-4c53-b475-43f5ad71b812" stage="ResponseComplete" ip="127.0.0.1" method="list" user="admin" groups="\\"system:masters\\",\\"system:authenticated\\"" as="b-user" asgroups="\\"g1\\",\\"system:authenticated\\"" user-agent="curl/7.88.1" namespace="b-rr" uri="/api/v1/namespaces/b-rr/configmaps" response="403"',
    );
    const { objectRef: _ref, ...bare } = event();
    const refused: AuditEvent = {
      ...bare,
      auditID: "7c460c18-7803-41b9-86ad-f722df7812d3",
      stage: "ResponseStarted",
      verb: "get",
      requestURI: "/api",
      user: {},
      userAgent: 'a"b',
      responseStatus: { metadata: {}, status: "Failure", message: "Unauthorized", reason: "Unauthorized", code: 401 },
      requestReceivedTimestamp: "2026-11-28T11:22:00.35527Z",
    };
    expect(legacyLine(refused)).toBe(
      '2026-11-28T11:22:00.35527Z AUDIT: id="7c460c18-7803-41b9-86ad-f722df7812d3" stage="ResponseStarted" ip="127.0.0.1" method="get" user="<none>" groups="<none>" as="<self>" asgroups="<lookup>" user-agent="a\\"b" namespace="<none>" uri="/api" response="401"',
    );
  });

  it("writes JSON and legacy lines through --audit-log-path", async () => {
    for (const format of ["json", "legacy"]) {
      const path = join(dir, `${format}.log`);
      const flags = parseAuditFlags({
        "audit-policy-file": policy,
        "audit-log-path": path,
        "audit-log-format": format,
      });
      const setup = flags && createAuditSetup(flags, undefined, () => {});
      setup?.backend.processEvents([event()]);
      await setup?.backend.shutdown();
      const line = readFileSync(path, "utf8");
      if (format === "json") expect(JSON.parse(line)).toEqual(event());
      else expect(line).toBe(`${legacyLine(event())}\n`);
    }
  });

  it("rotates at --audit-log-maxsize into <name>-<time>.<ext>, gzipped with --audit-log-compress, keeping --audit-log-maxbackup", () => {
    const path = join(dir, "rotate", "audit.log");
    const file = new RotatingFile(path, { maxSizeMB: 1, maxBackups: 2, maxAgeDays: 0, compress: true });
    const line = `${"x".repeat(600 * 1024)}\n`;
    for (let i = 0; i < 5; i++) file.write(line);
    file.close();
    const names = readdirSync(join(dir, "rotate")).sort();
    expect(names).toHaveLength(3);
    expect(names[2]).toBe("audit.log");
    for (const name of names.slice(0, 2)) {
      expect(name).toMatch(/^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log\.gz$/);
      expect(gunzipSync(readFileSync(join(dir, "rotate", name))).toString()).toBe(line);
    }
    expect(readFileSync(path, "utf8")).toBe(line);
  });

  it("sends batches in batch mode when full, when waited long enough, and at shutdown", async () => {
    const path = join(dir, "batch.log");
    const flags = parseAuditFlags({
      "audit-policy-file": policy,
      "audit-log-path": path,
      "audit-log-mode": "batch",
      "audit-log-batch-max-size": "2",
      "audit-log-batch-max-wait": "1h",
    });
    const setup = flags && createAuditSetup(flags, undefined, () => {});
    const lines = () =>
      readFileSync(path, "utf8")
        .split("\n")
        .filter((l) => l !== "").length;
    setup?.backend.processEvents([event()]);
    expect(lines()).toBe(0);
    setup?.backend.processEvents([event()]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines()).toBe(2);
    setup?.backend.processEvents([event()]);
    await setup?.backend.shutdown();
    expect(lines()).toBe(3);
  });

  it("drops request and response objects of events beyond the truncate size", () => {
    const got: AuditEvent[] = [];
    const backend = truncateBackend(
      {
        processEvents: (events) => {
          got.push(...events);
          return true;
        },
        shutdown: async () => {},
      },
      { maxEventSize: 2000, maxBatchSize: 10_000 },
      () => {},
    );
    backend.processEvents([event({ level: "Request", requestObject: { data: "y".repeat(5000) } })]);
    expect(got[0]?.requestObject).toBeUndefined();
    expect(got[0]?.annotations).toEqual({ "audit.k8s.io/truncated": "true" });
  });

  it("POSTs EventLists to the webhook, retrying after a 500", async () => {
    const bodies: unknown[] = [];
    let calls = 0;
    const hook = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        calls++;
        if (calls === 1) {
          res.writeHead(500).end();
          return;
        }
        bodies.push(JSON.parse(Buffer.concat(chunks).toString()));
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
    const kubeconfig = join(dir, "hook.kubeconfig");
    const port = (hook.address() as AddressInfo).port;
    writeFileSync(
      kubeconfig,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: hook\n  cluster:\n    server: http://127.0.0.1:${port}/audit\nusers:\n- name: u\n  user: {}\ncontexts:\n- name: c\n  context: {cluster: hook, user: u}\ncurrent-context: c\n`,
    );
    try {
      const flags = parseAuditFlags({
        "audit-policy-file": policy,
        "audit-webhook-config-file": kubeconfig,
        "audit-webhook-initial-backoff": "10ms",
        "audit-webhook-batch-max-wait": "10ms",
      });
      const setup = flags && createAuditSetup(flags, undefined, () => {});
      setup?.backend.processEvents([event(), event({ stage: "RequestReceived" })]);
      await setup?.backend.shutdown();
      expect(calls).toBe(2);
      const { kind: _k, apiVersion: _a, ...item } = event();
      expect(bodies).toEqual([
        {
          kind: "EventList",
          apiVersion: "audit.k8s.io/v1",
          metadata: {},
          items: [item, { ...item, stage: "RequestReceived" }],
        },
      ]);
    } finally {
      hook.close();
    }
  });
});
