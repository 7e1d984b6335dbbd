// Custom resources against a built-in kind in the same server: creates and gets of a CronTab (a structural
// schema with defaults and one CEL rule) against the same of ConfigMaps, over plain HTTP, and how long a new
// CustomResourceDefinition takes from POST to its first served request.
import { startServer } from "../runtime/index.js";

const token = "bench";
const server = await startServer({ insecure: true, adminToken: token, controllers: false });
const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };

async function call(method: string, path: string, body?: unknown): Promise<number> {
  const res = await fetch(server.url + path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await res.arrayBuffer();
  return res.status;
}

function definition(n: number) {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `crontabs${n}.stable.example.com` },
    spec: {
      group: "stable.example.com",
      scope: "Namespaced",
      names: { plural: `crontabs${n}`, kind: `CronTab${n}` },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: {
                spec: {
                  type: "object",
                  properties: {
                    cronSpec: { type: "string", maxLength: 64 },
                    image: { type: "string", default: "nginx" },
                    replicas: { type: "integer", minimum: 0 },
                  },
                  "x-kubernetes-validations": [{ rule: "self.replicas <= 10", message: "too many" }],
                },
              },
            },
          },
        },
      ],
    },
  };
}

/** Milliseconds from the POST of a definition to the first 200 from its resource. */
async function establish(n: number): Promise<number> {
  const started = performance.now();
  if ((await call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", definition(n))) !== 201) {
    throw new Error("definition refused");
  }
  while ((await call("GET", `/apis/stable.example.com/v1/namespaces/default/crontabs${n}`)) !== 200) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  return performance.now() - started;
}

async function rate(label: string, path: string, make: (i: number) => unknown, count: number) {
  const created = performance.now();
  for (let i = 0; i < count; i++) if ((await call("POST", path, make(i))) !== 201) throw new Error(`${label}: create`);
  const createMs = (performance.now() - created) / count;
  const read = performance.now();
  for (let i = 0; i < count; i++) await call("GET", `${path}/${label}-${i}`);
  const getMs = (performance.now() - read) / count;
  return { createMs, getMs };
}

const establishTimes: number[] = [];
for (let n = 0; n < 7; n++) establishTimes.push(await establish(n));
establishTimes.sort((a, b) => a - b);

const configMapRate = (prefix: string, count: number) =>
  rate(
    prefix,
    "/api/v1/namespaces/default/configmaps",
    (i) => ({ metadata: { name: `${prefix}-${i}` }, data: { cronSpec: "* * * * */5", replicas: "3" } }),
    count,
  );
const cronTabRate = (prefix: string, count: number) =>
  rate(
    prefix,
    "/apis/stable.example.com/v1/namespaces/default/crontabs0",
    (i) => ({
      apiVersion: "stable.example.com/v1",
      kind: "CronTab0",
      metadata: { name: `${prefix}-${i}` },
      spec: { cronSpec: "* * * * */5", replicas: 3 },
    }),
    count,
  );
// Warm both paths up first, so neither pays for the other's compilation.
await configMapRate("warm-cm", 100);
await cronTabRate("warm-ct", 100);
const configMaps = await configMapRate("cm", 400);
const crontabs = await cronTabRate("ct", 400);
await server.close();

const ms = (v: number) => `${(v * 1000).toFixed(0)} µs`;
console.log(`definition POST to first served list (median of 7): ${establishTimes[3]?.toFixed(1)} ms`);
console.log(
  `create: ConfigMap ${ms(configMaps.createMs)}, CronTab ${ms(crontabs.createMs)} (${(crontabs.createMs / configMaps.createMs).toFixed(2)}×)`,
);
console.log(
  `get:    ConfigMap ${ms(configMaps.getMs)}, CronTab ${ms(crontabs.getMs)} (${(crontabs.getMs / configMaps.getMs).toFixed(2)}×)`,
);
