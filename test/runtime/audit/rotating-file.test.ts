// The audit log file's deferral in blocking mode: a RequestReceived line waits for the next other line or
// the end of the event-loop turn, never past either, and the lines keep their order.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RotatingFile } from "../../../runtime/audit/rotating-file.js";

const options = { maxSizeMB: 0, maxBackups: 0, maxAgeDays: 0, compress: false };
let dir: string;

function fresh(onDeferredError?: (error: unknown, lines: number) => void): { file: RotatingFile; path: string } {
  dir = mkdtempSync(join(tmpdir(), "a2-rotating-"));
  const path = join(dir, "audit.log");
  return { file: new RotatingFile(path, options, onDeferredError), path };
}

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("RotatingFile", () => {
  it("writes every line at once without a deferred-error handler (blocking-strict)", () => {
    const { file, path } = fresh();
    file.write("received\n", true);
    expect(readFileSync(path, "utf8")).toBe("received\n");
    file.close();
  });

  it("holds a deferrable line until the next other line, and writes both in order", () => {
    const { file, path } = fresh(() => undefined);
    file.write("a received\n", true);
    file.write("b received\n", true);
    expect(readFileSync(path, "utf8")).toBe("");
    file.write("a complete\n");
    expect(readFileSync(path, "utf8")).toBe("a received\nb received\na complete\n");
    file.close();
  });

  it("writes a held line by the end of the event-loop turn, and on close", async () => {
    const { file, path } = fresh(() => undefined);
    file.write("watch received\n", true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(readFileSync(path, "utf8")).toBe("watch received\n");
    file.write("last received\n", true);
    file.close();
    expect(readFileSync(path, "utf8")).toBe("watch received\nlast received\n");
  });
});
