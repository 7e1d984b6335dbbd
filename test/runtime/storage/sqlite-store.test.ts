import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../../../runtime/storage/sqlite-store.js";
import type { Store } from "../../../runtime/storage/store.js";
import { runStorageSuite } from "./conformance.js";

const dir = mkdtempSync(join(tmpdir(), "kapi-storage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newPath = () => join(dir, `store-${files++}.db`);

runStorageSuite(
  "sqlite",
  async (options) => SqliteStore.open(newPath(), options),
  async (store: Store) => {
    const { path } = store as SqliteStore;
    await store.close();
    return SqliteStore.open(path);
  },
);

describe("SqliteStore", () => {
  it("uses WAL and the chosen synchronous level", async () => {
    for (const [synchronous, level] of [
      [undefined, 1],
      ["full", 2],
    ] as const) {
      const store = SqliteStore.open(newPath(), synchronous === undefined ? {} : { synchronous });
      const db = (store as unknown as { db: Database.Database }).db;
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(db.pragma("synchronous", { simple: true })).toBe(level);
      await store.close();
    }
  });

  it("checkpoints the WAL itself in small steps after writes, not SQLite's 1000 pages at a commit", async () => {
    const path = newPath();
    const store = SqliteStore.open(path);
    const db = (store as unknown as { db: Database.Database }).db;
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
    const value = new Uint8Array(1000).fill(120);
    for (let i = 0; i < 3000; i++) {
      await store.create(`/registry/things/ns/t-${i}`, value);
      if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
    }
    // SQLite's own checkpoints would let the WAL reach 1000 pages (4 MiB) before copying it back.
    expect(statSync(`${path}-wal`).size).toBeLessThan(3 * 1024 * 1024);
    await store.close();
    const reopened = SqliteStore.open(path);
    expect((await reopened.list("/registry/things/")).count).toBe(3000);
    await reopened.close();
  });

  it("keeps one row per live key below the compact revision", async () => {
    const path = newPath();
    const store = SqliteStore.open(path);
    await store.create("/a", new Uint8Array([1])); // 2
    await store.update("/a", new Uint8Array([2]), 2); // 3
    await store.create("/b", new Uint8Array([1])); // 4
    await store.delete("/b"); // 5
    await store.update("/a", new Uint8Array([3]), 3); // 6
    await store.compact(5);
    await store.close();
    const db = new Database(path, { readonly: true });
    expect(db.prepare("SELECT id, name, deleted FROM kv ORDER BY id").all()).toEqual([
      { id: 3, name: "/a", deleted: 0 },
      { id: 6, name: "/a", deleted: 0 },
    ]);
    expect(db.prepare("SELECT value FROM meta WHERE name = 'compact_revision'").get()).toEqual({ value: 5 });
    db.close();
  });

  it("locks the file against a second server", async () => {
    const path = newPath();
    const store = SqliteStore.open(path);
    await store.create("/a", new Uint8Array([1]));
    expect(() => SqliteStore.open(path)).toThrow(`storage: ${path} is in use by another process`);
    await store.close();
    const reopened = SqliteStore.open(path);
    expect(await reopened.currentRevision()).toBe(2);
    await reopened.close();
  });

  it("keeps acknowledged writes when the process is killed", async () => {
    const path = newPath();
    const child = spawnSync(
      process.execPath,
      ["--import", "tsx", join(import.meta.dirname, "fixtures/crash-writer.ts"), path],
      {
        encoding: "utf8",
      },
    );
    expect(child.signal).toBe("SIGKILL");
    const acknowledged = child.stdout.trim().split("\n").map(Number);
    expect(acknowledged.length).toBe(100);
    const store = SqliteStore.open(path);
    expect(await store.currentRevision()).toBe(acknowledged.at(-1));
    expect((await store.list("/crash/")).count).toBe(100);
    await store.close();
  });
});
