import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Authorizer } from "../../../runtime/access/authorizer.js";
import { AlwaysAllowAuthorizer, AlwaysDenyAuthorizer } from "../../../runtime/authz/always.js";
import {
  type AuthorizationConfiguration,
  parseAuthorizationConfiguration,
} from "../../../runtime/authz/authorization-config.js";
import { ReloadingAuthorizer } from "../../../runtime/authz/reloading-authorizer.js";
import { eventually } from "../controllers/controller-harness.js";
import { resourceRequest } from "./authz-fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "kapi-authz-reload-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (types: string[]) =>
  `apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n${types
    .map((t) => `- type: ${t}\n  name: ${t.toLowerCase()}\n`)
    .join("")}`;

/** A stand-in chain: the last configured authorizer decides (kube keeps every non-webhook type on reload). */
function build(configuration: AuthorizationConfiguration): Authorizer {
  const last = configuration.authorizers.at(-1)?.type;
  if (last === "RBAC") throw new Error("RBAC is not available here");
  return last === "AlwaysAllow" ? new AlwaysAllowAuthorizer() : new AlwaysDenyAuthorizer();
}

function setup(name: string, types: string[]) {
  const path = join(dir, name);
  const data = file(types);
  writeFileSync(path, data);
  const logs: [string, unknown][] = [];
  const authorizer = new ReloadingAuthorizer({
    path,
    data,
    configuration: parseAuthorizationConfiguration(data),
    build,
    log: (message, error) => logs.push([message, error]),
    intervalMs: 20,
  });
  return { path, authorizer, logs };
}

const decision = (a: Authorizer) =>
  (a.authorize(resourceRequest({ name: "u", groups: [] })) as { decision: string }).decision;

describe("ReloadingAuthorizer", () => {
  it("serves the first configuration and swaps in a valid new one", () => {
    const { path, authorizer, logs } = setup("swap.yaml", ["AlwaysAllow", "AlwaysDeny"]);
    expect(decision(authorizer)).toBe("noOpinion");
    expect(authorizer.checkFile()).toBe(false);
    writeFileSync(path, file(["AlwaysDeny", "AlwaysAllow"]));
    expect(authorizer.checkFile()).toBe(true);
    expect(decision(authorizer)).toBe("allow");
    expect(logs).toEqual([["reloaded authz config", undefined]]);
  });

  it("keeps the current chain when the new file is invalid, drops a required type, or does not build", () => {
    const { path, authorizer, logs } = setup("keep.yaml", ["Node", "AlwaysAllow"]);
    for (const bad of ["authorizers: [", file(["AlwaysAllow"]), file(["Node", "AlwaysAllow", "RBAC"])]) {
      writeFileSync(path, bad);
      expect(authorizer.checkFile()).toBe(false);
      expect(decision(authorizer)).toBe("allow");
    }
    expect(logs.map(([m, e]) => [m, (e as Error).message])).toEqual([
      ["reloading authorization config", expect.stringMatching(/^failed to load AuthorizationConfiguration/)],
      ["reloading authorization config", "missing required types: [Node]"],
      ["reloading authorization config", "RBAC is not available here"],
    ]);
    rmSync(path);
    expect(authorizer.checkFile()).toBe(false);
    expect(logs.at(-1)?.[0]).toBe("reloading authorization config");
  });

  it("ignores a rewrite that leaves the configuration as it was", () => {
    const { path, authorizer, logs } = setup("same.yaml", ["AlwaysAllow"]);
    writeFileSync(path, `# a comment\n${file(["AlwaysAllow"])}`);
    expect(authorizer.checkFile()).toBe(false);
    expect(logs).toEqual([]);
  });

  it("once started, follows changes and replacements of the file until stopped", async () => {
    const { path, authorizer } = setup("watched.yaml", ["AlwaysAllow", "AlwaysDeny"]);
    authorizer.start();
    try {
      writeFileSync(path, file(["AlwaysDeny", "AlwaysAllow"]));
      await eventually(() => expect(decision(authorizer)).toBe("allow"));
      const next = join(dir, "watched.next");
      writeFileSync(next, file(["AlwaysAllow", "AlwaysDeny"]));
      renameSync(next, path);
      await eventually(() => expect(decision(authorizer)).toBe("noOpinion"));
    } finally {
      authorizer.stop();
    }
    writeFileSync(path, file(["AlwaysDeny", "AlwaysAllow"]));
    await new Promise((r) => setTimeout(r, 60));
    expect(decision(authorizer)).toBe("noOpinion");
  });
});
