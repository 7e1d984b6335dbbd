// The SQLite backend, in the manner of k3s's kine: every write appends one row to a revision log, the row
// id being the revision; a key's state at revision R is its latest row with id <= R. better-sqlite3 is
// synchronous, so each write is one transaction that commits before the call returns, and watchers are
// fed by this object right after commit (writes from other processes are excluded by an exclusive lock).
import { chmodSync, closeSync, existsSync, openSync } from "node:fs";
import { setImmediate as nextTurn } from "node:timers/promises";
import Database from "better-sqlite3";
import { compareKeys, prefixEnd } from "./key-order.js";
import { readRevision } from "./read-revision.js";
import {
  CompactedError,
  ConflictError,
  FutureRevisionError,
  KeyExistsError,
  NotFoundError,
  StoreClosedError,
} from "./storage-errors.js";
import type {
  DeleteOptions,
  DeleteResult,
  KeyValue,
  ListOptions,
  ListResult,
  ReadOptions,
  Store,
  WatchEvent,
} from "./store.js";
import { type HistoryPage, WatchHub, type WatchHubOptions } from "./watch-hub.js";

export interface SqliteStoreOptions extends WatchHubOptions {
  /**
   * "normal" (default): a commit reaches the WAL file before the write is acknowledged, so it survives
   * a crash of the process; the WAL is synced at checkpoints only, so power loss may drop the last
   * commits. "full": the WAL is synced at every commit, surviving power loss too, at a cost per write.
   */
  synchronous?: "normal" | "full";
}

const schemaVersion = 1;

/**
 * WAL frames one checkpoint should copy: SQLite's own checkpoint after a commit copies 1000 and fsyncs, tens of
 * milliseconds of a synchronous call. Smaller checkpoints, run right after the commit's caller is answered,
 * keep each such pause short.
 */
const checkpointFrames = 256;
/** A checkpoint of whatever the WAL holds runs after this long without one. */
const idleCheckpointMs = 1000;
/** The WAL file is cut back to this size after a checkpoint, so one burst of writes does not keep it large. */
const walSizeLimitBytes = 16 * 1024 * 1024;
/** Rows one compaction step examines; compaction yields to other work between steps. */
const compactionStepRows = 2000;

const schema = `
CREATE TABLE IF NOT EXISTS kv (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  created INTEGER NOT NULL,
  deleted INTEGER NOT NULL,
  create_revision INTEGER NOT NULL,
  prev_revision INTEGER NOT NULL,
  version INTEGER NOT NULL,
  value BLOB,
  old_value BLOB
);
CREATE INDEX IF NOT EXISTS kv_name_id ON kv (name, id);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
`;

/** One row of the log: a create, an update (created = 0, deleted = 0) or a delete. */
interface Row {
  id: number;
  name: string;
  created: number;
  deleted: number;
  create_revision: number;
  /** Revision of the row this one replaced; 0 for a create. */
  prev_revision: number;
  /** Version of the entry written; for a delete, of the entry deleted. */
  version: number;
  value: Buffer | null;
  old_value: Buffer | null;
}

const empty = new Uint8Array(0);

/**
 * The store holds Secrets: its file is created owner-only (0600) before SQLite opens it, and SQLite gives its
 * WAL and shared-memory files the database file's mode. Files left by an older kapi are narrowed too.
 */
function keepPrivate(path: string): void {
  closeSync(openSync(path, "a", 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
    if (existsSync(file)) chmodSync(file, 0o600);
  }
}

export class SqliteStore implements Store {
  private readonly db: Database.Database;
  private revision: number;
  private compacted: number;
  private readonly hub: WatchHub;
  private closed = false;
  private readonly sql;
  private readonly statements = new Map<string, Database.Statement<unknown[], unknown>>();
  /** Commits since the last checkpoint, and how many start the next one (from the WAL frames per commit seen). */
  private uncheckpointed = 0;
  private checkpointAfter = 64;
  private checkpointPending: NodeJS.Immediate | undefined;
  private readonly checkpointTimer: NodeJS.Timeout;

  private constructor(
    readonly path: string,
    options: SqliteStoreOptions,
  ) {
    if (path !== ":memory:" && path !== "") keepPrivate(path);
    // No busy wait: the only contender is another server holding the exclusive lock, which keeps it.
    this.db = new Database(path, { timeout: 0 });
    this.db.pragma("locking_mode = EXCLUSIVE");
    let version: number;
    try {
      version = this.db.pragma("user_version", { simple: true }) as number;
    } catch (error) {
      this.db.close();
      if ((error as { code?: string }).code === "SQLITE_BUSY")
        throw new Error(`storage: ${path} is in use by another process`);
      throw error;
    }
    if (version !== 0 && version !== schemaVersion) {
      this.db.close();
      throw new Error(`storage: ${path} has schema version ${version}, this kapi reads ${schemaVersion}`);
    }
    this.db.pragma("journal_mode = WAL");
    this.db.pragma(`synchronous = ${options.synchronous === "full" ? "FULL" : "NORMAL"}`);
    // Checkpoints are this object's: bounded, after the write's caller has its answer (scheduleCheckpoint).
    this.db.pragma("wal_autocheckpoint = 0");
    this.db.pragma(`journal_size_limit = ${walSizeLimitBytes}`);
    this.db.exec(schema);
    this.db.pragma(`user_version = ${schemaVersion}`);
    const db = this.db;
    this.sql = {
      latest: db.prepare<[string, number], Row>("SELECT * FROM kv WHERE name = ? AND id <= ? ORDER BY id DESC LIMIT 1"),
      insert: db.prepare(
        `INSERT INTO kv (id, name, created, deleted, create_revision, prev_revision, version, value, old_value)
         VALUES (@id, @name, @created, @deleted, @create_revision, @prev_revision, @version, @value, @old_value)`,
      ),
      maxId: db.prepare<[], { id: number | null }>("SELECT MAX(id) AS id FROM kv"),
      probe: db.prepare<[], { value: number }>("SELECT value FROM meta LIMIT 1"),
      getMeta: db.prepare<[string], { value: number }>("SELECT value FROM meta WHERE name = ?"),
      setMeta: db.prepare(
        "INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
      ),
      compact: db.prepare(
        `DELETE FROM kv WHERE id > @from AND id <= @to AND (deleted = 1 OR EXISTS (
           SELECT 1 FROM kv AS newer WHERE newer.name = kv.name AND newer.id > kv.id AND newer.id <= @revision))`,
      ),
      oldestId: db.prepare<[], { id: number | null }>("SELECT MIN(id) AS id FROM kv"),
    };
    this.compacted = this.sql.getMeta.get("compact_revision")?.value ?? 0;
    // A compaction may have removed the newest row (a delete), so the compact revision bounds it too.
    this.revision = Math.max(this.sql.maxId.get()?.id ?? 1, this.compacted, 1);
    this.hub = new WatchHub(
      {
        readHistory: (prefix, after, limit) => this.readHistory(prefix, after, limit),
        compactRevision: () => this.compacted,
      },
      options,
    );
    this.checkpointTimer = setInterval(() => {
      if (this.uncheckpointed > 0) this.checkpoint();
    }, idleCheckpointMs);
    this.checkpointTimer.unref();
  }

  /** Opens (creating if needed) the database at `path`; the revision counter resumes where it stopped. */
  static open(path: string, options: SqliteStoreOptions = {}): SqliteStore {
    return new SqliteStore(path, options);
  }

  async currentRevision(): Promise<number> {
    this.assertOpen();
    return this.revision;
  }

  async get(key: string, options: ReadOptions = {}): Promise<KeyValue | undefined> {
    this.assertOpen();
    const revision = readRevision(options.revision, this.revision, this.compacted);
    return entryOf(this.sql.latest.get(key, revision));
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    this.assertOpen();
    const revision = readRevision(options.revision, this.revision, this.compacted);
    const limit = options.limit ?? 0;
    const from =
      options.startKey !== undefined && compareKeys(options.startKey, prefix) > 0 ? options.startKey : prefix;
    const end = prefixEnd(prefix);
    // Latest row per name at the revision, among names in range; deleted names drop out after grouping.
    const range = `name >= ? ${end === undefined ? "" : "AND name < ?"} AND id <= ?`;
    const latest = `SELECT MAX(id) AS id FROM kv WHERE ${range} GROUP BY name`;
    const params = end === undefined ? [from, revision] : [from, end, revision];
    const rows = this.prepared<Row>(
      `SELECT kv.* FROM kv JOIN (${latest}) AS latest ON latest.id = kv.id
       WHERE kv.deleted = 0 ORDER BY kv.name ${limit > 0 ? "LIMIT ?" : ""}`,
    ).all(...params, ...(limit > 0 ? [limit + 1] : []));
    const more = limit > 0 && rows.length > limit;
    const kvs = rows.slice(0, more ? limit : rows.length).map((row) => entryOf(row) as KeyValue);
    const count = more
      ? (this.prepared<{ n: number }>(
          `SELECT COUNT(*) AS n FROM kv JOIN (${latest}) AS latest ON latest.id = kv.id WHERE kv.deleted = 0`,
        ).get(...params)?.n ?? 0)
      : kvs.length;
    return { kvs, revision, more, count };
  }

  async create(key: string, value: Uint8Array): Promise<KeyValue> {
    this.assertOpen();
    if (this.current(key) !== undefined) throw new KeyExistsError(key);
    const id = this.revision + 1;
    return this.commit({
      id,
      name: key,
      created: 1,
      deleted: 0,
      create_revision: id,
      prev_revision: 0,
      version: 1,
      value: Buffer.from(value.buffer, value.byteOffset, value.byteLength),
      old_value: null,
    }).kv;
  }

  async update(key: string, value: Uint8Array, expectedModRevision: number): Promise<KeyValue> {
    this.assertOpen();
    const prev = this.current(key);
    if (prev === undefined) throw new NotFoundError(key);
    const prevKv = entryOf(prev) as KeyValue;
    if (prev.id !== expectedModRevision) throw new ConflictError(prevKv, expectedModRevision);
    return this.commit({
      id: this.revision + 1,
      name: key,
      created: 0,
      deleted: 0,
      create_revision: prev.create_revision,
      prev_revision: prev.id,
      version: prev.version + 1,
      value: Buffer.from(value.buffer, value.byteOffset, value.byteLength),
      old_value: prev.value,
    }).kv;
  }

  async delete(key: string, options: DeleteOptions = {}): Promise<DeleteResult> {
    this.assertOpen();
    const prev = this.current(key);
    if (prev === undefined) throw new NotFoundError(key);
    const prevKv = entryOf(prev) as KeyValue;
    const expected = options.expectedModRevision;
    if (expected !== undefined && prev.id !== expected) throw new ConflictError(prevKv, expected);
    const event = this.commit({
      id: this.revision + 1,
      name: key,
      created: 0,
      deleted: 1,
      create_revision: prev.create_revision,
      prev_revision: prev.id,
      version: prev.version,
      value: null,
      old_value: prev.value,
    });
    return { kv: prevKv, revision: event.revision };
  }

  async watch(prefix: string, fromRevision: number, signal?: AbortSignal): Promise<AsyncIterableIterator<WatchEvent>> {
    this.assertOpen();
    return this.hub.watch(prefix, fromRevision, this.revision, signal);
  }

  /**
   * Reads below `revision` are refused from the start; the rows they needed are then deleted in steps of
   * ascending ids, each its own transaction, with other work running between steps. Going up by id, a key's
   * older rows go before the newer ones that supersede them, so every read at or above `revision` sees the same
   * state throughout (and after a crash midway, whose leftovers the next compaction removes).
   */
  async compact(revision: number): Promise<void> {
    this.assertOpen();
    if (revision > this.revision) throw new FutureRevisionError(revision, this.revision);
    if (revision <= this.compacted) throw new CompactedError(this.compacted, revision);
    this.sql.setMeta.run("compact_revision", revision);
    this.compacted = revision;
    for (let from = (this.sql.oldestId.get()?.id ?? revision) - 1; from < revision; from += compactionStepRows) {
      if (this.closed) return;
      this.sql.compact.run({ from, to: Math.min(from + compactionStepRows, revision), revision });
      this.noteCommit();
      await nextTurn();
    }
  }

  async probe(): Promise<void> {
    this.assertOpen();
    // A read through the open database: fails when the file or connection is broken.
    this.sql.probe.get();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.checkpointTimer);
    if (this.checkpointPending !== undefined) clearImmediate(this.checkpointPending);
    this.hub.closeAll();
    // Closing checkpoints the whole WAL into the database and removes it.
    this.db.close();
  }

  private readHistory(prefix: string, after: number, limit: number): HistoryPage {
    const end = prefixEnd(prefix);
    // Unary + keeps SQLite off the name index: walking ids from `after` costs the lag, not the whole prefix.
    const rows = this.prepared<Row>(
      `SELECT * FROM kv WHERE id > ? AND +name >= ? ${end === undefined ? "" : "AND +name < ?"} ORDER BY id LIMIT ?`,
    ).all(after, prefix, ...(end === undefined ? [] : [end]), limit);
    const events = rows.map(eventOf);
    const last = events.at(-1);
    if (events.length === limit && last !== undefined) {
      return { events, through: last.revision, complete: last.revision === this.revision };
    }
    return { events, through: this.revision, complete: true };
  }

  /** Statements whose text depends on the request's shape, prepared once per shape. */
  private prepared<R>(sql: string): Database.Statement<unknown[], R> {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement as Database.Statement<unknown[], R>;
  }

  private current(key: string): Row | undefined {
    const row = this.sql.latest.get(key, this.revision);
    return row === undefined || row.deleted === 1 ? undefined : row;
  }

  /** Appends the row in its own transaction (autocommit), then tells watchers. */
  private commit(row: Row): WatchEvent {
    this.sql.insert.run(row);
    this.revision = row.id;
    const event = eventOf(row);
    this.hub.publish(event);
    this.noteCommit();
    return event;
  }

  /** Counts a commit; enough of them schedule a checkpoint for after the current work. */
  private noteCommit(): void {
    this.uncheckpointed++;
    if (this.uncheckpointed < this.checkpointAfter || this.checkpointPending !== undefined) return;
    this.checkpointPending = setImmediate(() => {
      this.checkpointPending = undefined;
      this.checkpoint();
    });
  }

  /**
   * Copies the WAL into the database (PASSIVE: nothing waits, as this connection is the only one) and fsyncs it
   * with synchronous=NORMAL; sizes the next one from the frames this one found.
   */
  private checkpoint(): void {
    if (this.closed) return;
    const commits = this.uncheckpointed;
    this.uncheckpointed = 0;
    const [result] = this.db.pragma("wal_checkpoint(PASSIVE)") as { log: number }[];
    const frames = result?.log ?? 0;
    if (commits > 0 && frames > 0) {
      this.checkpointAfter = Math.max(8, Math.round((checkpointFrames * commits) / frames));
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreClosedError();
  }
}

/** The live entry a row leaves behind, or undefined for a delete. */
function entryOf(row: Row | undefined): KeyValue | undefined {
  if (row === undefined || row.deleted === 1) return undefined;
  return {
    key: row.name,
    value: row.value ?? empty,
    createRevision: row.create_revision,
    modRevision: row.id,
    version: row.version,
  };
}

function eventOf(row: Row): WatchEvent {
  const prevKv =
    row.created === 1
      ? undefined
      : {
          key: row.name,
          value: row.old_value ?? empty,
          createRevision: row.create_revision,
          modRevision: row.prev_revision,
          version: row.deleted === 1 ? row.version : row.version - 1,
        };
  const kv =
    row.deleted === 1
      ? { key: row.name, value: empty, createRevision: 0, modRevision: row.id, version: 0 }
      : (entryOf(row) as KeyValue);
  const type = row.deleted === 1 ? "delete" : "put";
  return prevKv === undefined ? { type, kv, revision: row.id } : { type, kv, prevKv, revision: row.id };
}
