// Worker for bench/server.ts: holds the HTTP watches in its own thread, so that decrypting and reading 300
// streams does not share the server's event loop, and reports when each event line arrived.
import { Agent, request } from "node:https";
import { parentPort, workerData } from "node:worker_threads";

const { url, token, ca, watchers } = workerData as { url: string; token: string; ca: string; watchers: number };
const agent = new Agent({ keepAlive: true, maxSockets: watchers + 1, ca });
const arrivals: number[] = [];
let open = 0;

for (let i = 0; i < watchers; i++) {
  const req = request(url, { agent, headers: { Authorization: `Bearer ${token}` } }, (res) => {
    if (++open === watchers) parentPort?.postMessage({ ready: true });
    res.on("data", (chunk: Buffer) => {
      const now = performance.timeOrigin + performance.now();
      for (const line of chunk.toString().split("\n")) if (line !== "") arrivals.push(now);
    });
  });
  req.end();
}

parentPort?.on("message", (message: { collect?: boolean }) => {
  if (message.collect) {
    parentPort?.postMessage({ arrivals: arrivals.splice(0) });
  }
});
