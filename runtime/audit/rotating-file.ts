// The audit log file as kube-apiserver's lumberjack.Logger keeps it: appended to, and once a write would take
// it past `maxSizeMB` megabytes, moved aside as `<name>-<UTC time>.<ext>` (gzipped with `compress`) and started
// anew; backups beyond `maxBackups`, or older than `maxAgeDays` by the time in their name, are removed (0: keep).
// Writes are synchronous, so a failure is known to the caller (blocking-strict fails the request on it). With
// `onDeferredError` (blocking mode, which only counts a failure) a deferrable line (a RequestReceived event) is
// held until the next other write or the end of the event-loop turn, whichever comes first, and written with
// it: one write call per request rather than two, and each request's events on disk before its response ends.
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { gzipSync } from "node:zlib";

export interface RotationOptions {
  /** 0: never rotate. */
  maxSizeMB: number;
  maxBackups: number;
  maxAgeDays: number;
  compress: boolean;
}

const megabyte = 1024 * 1024;

/** lumberjack's backup time format, 2006-01-02T15-04-05.000, in UTC. */
function backupTime(date: Date): string {
  return date.toISOString().replace(/:/g, "-").replace(/Z$/, "");
}

export class RotatingFile {
  readonly #path: string;
  readonly #options: RotationOptions;
  readonly #onDeferredError: ((error: unknown, lines: number) => void) | undefined;
  #fd: number;
  #size: number;
  #pending: string[] = [];
  #flush: NodeJS.Immediate | undefined;

  constructor(path: string, options: RotationOptions, onDeferredError?: (error: unknown, lines: number) => void) {
    this.#path = path;
    this.#options = options;
    this.#onDeferredError = onDeferredError;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.#fd = openSync(path, "a", 0o600);
    this.#size = statSync(path).size;
  }

  write(text: string, deferrable = false): void {
    if (this.#onDeferredError === undefined) {
      this.#writeNow(text);
      return;
    }
    this.#pending.push(text);
    if (deferrable) this.#flush ??= setImmediate(() => this.flush());
    else this.flush();
  }

  /** Writes the held lines: at once while the file has room for them all, else line by line, rotating. */
  flush(): void {
    if (this.#flush !== undefined) clearImmediate(this.#flush);
    this.#flush = undefined;
    const lines = this.#pending;
    if (lines.length === 0) return;
    this.#pending = [];
    const text = lines.length === 1 ? (lines[0] as string) : lines.join("");
    const max = this.#options.maxSizeMB * megabyte;
    const fits = this.#options.maxSizeMB === 0 || this.#size + Buffer.byteLength(text) <= max;
    for (const chunk of fits ? [text] : lines) {
      try {
        this.#writeNow(chunk);
      } catch (error) {
        this.#onDeferredError?.(error, fits ? lines.length : 1);
      }
    }
  }

  #writeNow(text: string): void {
    const length = Buffer.byteLength(text);
    const max = this.#options.maxSizeMB * megabyte;
    if (this.#options.maxSizeMB > 0 && length > max) {
      throw new Error(`write length ${length} exceeds maximum file size ${max}`);
    }
    if (this.#options.maxSizeMB > 0 && this.#size + length > max) this.#rotate();
    // Written as the string: no Buffer is made per line.
    writeSync(this.#fd, text);
    this.#size += length;
  }

  close(): void {
    this.flush();
    closeSync(this.#fd);
  }

  #rotate(): void {
    closeSync(this.#fd);
    const ext = extname(this.#path);
    const stem = basename(this.#path, ext);
    const backup = join(dirname(this.#path), `${stem}-${backupTime(new Date())}${ext}`);
    renameSync(this.#path, backup);
    if (this.#options.compress) {
      writeFileSync(`${backup}.gz`, gzipSync(readFileSync(backup)), { mode: 0o600 });
      unlinkSync(backup);
    }
    this.#fd = openSync(this.#path, "a", 0o600);
    this.#size = 0;
    this.#removeOldBackups(stem, ext);
  }

  #removeOldBackups(stem: string, ext: string): void {
    const { maxBackups, maxAgeDays } = this.#options;
    if (maxBackups === 0 && maxAgeDays === 0) return;
    const dir = dirname(this.#path);
    const pattern = new RegExp(
      `^${regexpQuoted(stem)}-(\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}\\.\\d{3})${regexpQuoted(ext)}(\\.gz)?$`,
    );
    const backups = readdirSync(dir)
      .map((name) => ({ name, match: pattern.exec(name) }))
      .filter((entry) => entry.match !== null)
      .map((entry) => {
        const [date, time] = (entry.match?.[1] ?? "").split("T");
        const [h, m, s] = (time ?? "").split("-");
        return { name: entry.name, at: Date.parse(`${date}T${h}:${m}:${s}Z`) };
      })
      .sort((a, b) => b.at - a.at);
    const cutoff = Date.now() - maxAgeDays * 24 * 3600 * 1000;
    backups.forEach((backup, i) => {
      const tooMany = maxBackups > 0 && i >= maxBackups;
      const tooOld = maxAgeDays > 0 && backup.at < cutoff;
      if (tooMany || tooOld) unlinkSync(join(dir, backup.name));
    });
  }
}

function regexpQuoted(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
