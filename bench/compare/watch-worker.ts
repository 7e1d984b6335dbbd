// The watchers of the watch workload, in their own thread so that decrypting and splitting 300 streams
// does not share the event loop of the writer timing the writes. Reports when each watcher saw each
// written object (by the number in its name) arrive.
import { Agent, request } from "node:https";
import { parentPort, workerData } from "node:worker_threads";

const { url, token, ca, watchers } = workerData as { url: string; token: string; ca: string; watchers: number };
const agent = new Agent({ keepAlive: true, maxSockets: watchers + 1, ca });
const namePattern = /"name":"w-(\d+)"/;
/** Pairs of (write number, arrival time in ms since the epoch). */
let arrivals: number[] = [];
let open = 0;
let failure: string | undefined;
let closed = 0;

for (let i = 0; i < watchers; i++) {
  const req = request(url, { agent, headers: { Authorization: `Bearer ${token}` } }, (res) => {
    if (res.statusCode !== 200) failure ??= `watch answered ${res.statusCode}`;
    if (++open === watchers) parentPort?.postMessage({ ready: true, failure });
    let pending = "";
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      const now = performance.timeOrigin + performance.now();
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const match = namePattern.exec(line);
        if (match !== null) arrivals.push(Number(match[1]), now);
      }
    });
    // A server may end a watch it judges too slow to read (kube's cacher does): its events never come.
    res.on("end", () => {
      closed++;
      failure = `the server ended ${closed} of ${watchers} watches`;
    });
  });
  req.on("error", (error) => {
    failure ??= error.message;
  });
  req.end();
}

parentPort?.on("message", () => {
  parentPort?.postMessage({ arrivals, failure });
  arrivals = [];
});
