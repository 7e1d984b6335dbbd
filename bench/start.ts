// In-process start to ready: startServer() with the default chain (Node,RBAC: the RBAC index and the
// default policy created before the server counts as started) against AlwaysAllow (no policy), with the
// same certificates so that key generation is not measured. Medians of 15 starts after 3 warm-ups.
import { createServingCertificates } from "../runtime/http/certificates.js";
import { startServer } from "../runtime/index.js";

const certificates = createServingCertificates({ dns: ["localhost"], ips: ["127.0.0.1"] });

async function median(options: Parameters<typeof startServer>[0]): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 18; i++) {
    const started = performance.now();
    const server = await startServer({ certificates, ...options });
    if (i >= 3) times.push(performance.now() - started);
    await server.close();
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

const baseline = await median({ authorization: { authorizationMode: "AlwaysAllow" } });
const rbac = await median({});
console.log(`start to ready, AlwaysAllow: ${baseline.toFixed(1)} ms`);
console.log(
  `start to ready, Node,RBAC (default policy created): ${rbac.toFixed(1)} ms (${(rbac / baseline).toFixed(2)}×)`,
);
