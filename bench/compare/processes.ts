// The servers under test as Linux processes: the tree under each root pid, its CPU time and resident
// memory from /proc, free ports, and stopping what the bench started.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";

const clockTicks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
const pageBytes = Number(execFileSync("getconf", ["PAGESIZE"], { encoding: "utf8" }).trim()) || 4096;

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime, seconds: the process and its children that have exited. */
  cpuSeconds: number;
  rssBytes: number;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name, in parentheses, may hold spaces: fields are counted after its closing one.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    const n = (i: number) => Number(fields[i - 3]);
    return {
      pid,
      ppid: n(4),
      cpuSeconds: (n(14) + n(15) + n(16) + n(17)) / clockTicks,
      rssBytes: n(24) * pageBytes,
    };
  } catch {
    return undefined;
  }
}

/** The roots and every live descendant of them. */
export function processTree(roots: readonly number[]): ProcStat[] {
  const all = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((s): s is ProcStat => s !== undefined);
  const inTree = new Set(roots);
  let grew = true;
  while (grew) {
    grew = false;
    for (const s of all) {
      if (!inTree.has(s.pid) && inTree.has(s.ppid)) {
        inTree.add(s.pid);
        grew = true;
      }
    }
  }
  return all.filter((s) => inTree.has(s.pid));
}

export interface TreeSample {
  at: number;
  cpuSeconds: number;
  rssBytes: number;
  processes: number;
}

export function sampleTree(roots: readonly number[]): TreeSample {
  const tree = processTree(roots);
  return {
    at: performance.now(),
    // A child that exited is counted in its parent's cutime once the parent reaped it.
    cpuSeconds: tree.reduce((sum, s) => sum + s.cpuSeconds, 0),
    rssBytes: tree.reduce((sum, s) => sum + s.rssBytes, 0),
    processes: tree.length,
  };
}

/** CPU seconds per wall second between two samples: how many cores the server kept busy. */
export function coresUsed(before: TreeSample, after: TreeSample): number {
  const wall = (after.at - before.at) / 1000;
  return wall <= 0 ? Number.NaN : (after.cpuSeconds - before.cpuSeconds) / wall;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `check` until it holds, else fails after `timeoutMs` with `what`. A failing check is polled again
 * (the server may not listen yet); `alive` throwing (the server exited) ends the wait at once.
 */
export async function waitFor(
  what: string,
  timeoutMs: number,
  check: () => Promise<boolean>,
  alive: () => void = () => {},
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    alive();
    if (await check().catch(() => false)) return;
    await sleep(250);
  }
  throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
}
