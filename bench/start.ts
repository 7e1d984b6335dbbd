// In-process start to ready, as a test sees it: startServer() until its first request (GET /version through
// request()) is answered. Default options (an HTTPS listener, new certificates and keys, Node,RBAC with the
// default policy written), no listener, and AlwaysAllow (no policy). Medians of 20 starts after 3 warm-ups,
// with the CPU time they took (all of the process's threads).
import { type InProcessServer, startServer } from "../runtime/index.js";

async function median(start: () => Promise<InProcessServer>): Promise<{ wall: number; cpu: number }> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 23; i++) {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const server = await start();
    await (await server.request({ path: "/version" })).arrayBuffer();
    const used = process.cpuUsage(cpuBefore);
    if (i >= 3) {
      wall.push(performance.now() - started);
      cpu.push((used.user + used.system) / 1000);
    }
    await server.close();
  }
  const middle = (times: number[]) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0;
  return { wall: middle(wall), cpu: middle(cpu) };
}

const runs: [string, () => Promise<InProcessServer>][] = [
  ["default options", () => startServer()],
  ["listen: false", () => startServer({ listen: false })],
  [
    "AlwaysAllow, listen: false",
    () => startServer({ listen: false, authorization: { authorizationMode: "AlwaysAllow" } }),
  ],
];
for (const [name, start] of runs) {
  const { wall, cpu } = await median(start);
  console.log(`start to first answer, ${name}: ${wall.toFixed(1)} ms (CPU ${cpu.toFixed(1)} ms)`);
}
