import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadAuthenticationConfig } from "../../../../runtime/authn/jwt/authentication-config.js";
import type { AuthenticationConfiguration } from "../../../../runtime/authn/jwt/authentication-configuration.js";
import { watchAuthenticationConfig } from "../../../../runtime/authn/jwt/watch-authentication-config.js";

const dir = mkdtempSync(join(tmpdir(), "kapi-authn-watch-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function document(url: string, anonymous?: unknown): string {
  return JSON.stringify({
    apiVersion: "apiserver.config.k8s.io/v1",
    kind: "AuthenticationConfiguration",
    jwt: [{ issuer: { url, audiences: ["kapi"] }, claimMappings: { username: { claim: "sub", prefix: "" } } }],
    ...(anonymous === undefined ? {} : { anonymous }),
  });
}

/** Replaces the file in one step, so that the watcher never reads it half written. */
function replace(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(condition()).toBe(true);
}

describe("watchAuthenticationConfig", () => {
  it("applies changed valid files, reports invalid ones once and keeps anonymous fixed", async () => {
    const path = join(dir, "authn.yaml");
    writeFileSync(path, document("https://a.example.com", { enabled: true }));
    const initial = loadAuthenticationConfig(path);
    const applied: AuthenticationConfiguration[] = [];
    const errors: string[] = [];
    const watch = watchAuthenticationConfig(path, initial, (c) => void applied.push(c), {
      intervalMs: 50,
      onError: (e) => errors.push(e.message),
    });
    try {
      replace(path, document("https://b.example.com", { enabled: true }));
      await until(() => applied.length === 1);
      expect(applied[0]?.jwt[0]?.issuer.url).toBe("https://b.example.com");

      replace(path, document("http://c.example.com", { enabled: true }));
      await until(() => errors.length === 1);
      expect(errors[0]).toBe(
        'failed to validate authentication config: jwt[0].issuer.url: Invalid value: "http://c.example.com": URL scheme must be https',
      );

      // Anonymous may not change.
      replace(path, document("https://d.example.com", { enabled: false }));
      await until(() => errors.length === 2);
      expect(errors[1]).toBe(
        "failed to validate authentication config: anonymous: Forbidden: changed from initial configuration file",
      );

      replace(path, "kind: AuthenticationConfiguration\napiVersion: apiserver.config.k8s.io/v1\nfoo: 1\n");
      await until(() => errors.length === 3);
      expect(errors[2]).toBe('failed to load authentication config: strict decoding error: unknown field "foo"');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(errors).toHaveLength(3);
      expect(applied).toHaveLength(1);
    } finally {
      watch.close();
    }
  });

  it("retries a configuration the server could not apply", async () => {
    const path = join(dir, "retry.yaml");
    writeFileSync(path, document("https://a.example.com"));
    const initial = loadAuthenticationConfig(path);
    let attempts = 0;
    const errors: string[] = [];
    const watch = watchAuthenticationConfig(
      path,
      initial,
      () => {
        attempts++;
        if (attempts === 1) throw new Error("issuer not reachable");
      },
      { intervalMs: 30, onError: (e) => errors.push(e.message) },
    );
    try {
      replace(path, document("https://b.example.com"));
      await until(() => attempts === 2);
      expect(errors).toEqual(["failed to update authentication config: issuer not reachable"]);
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(attempts).toBe(2);
    } finally {
      watch.close();
    }
  });
});
