// A LIST of 10k pods in protobuf against the same list in JSON, in the same process: bytes (raw and gzip
// level 1, kube's response compression), encoding the whole list from objects, assembling it from the items'
// cached bodies (what a LIST served from the watch cache does), and decoding it. The pods are copies of one
// pod as kapi stores it (defaults, managedFields, status), each with its own name, uid and resourceVersion.
// Usage: npx tsx bench/protobuf-list.ts [pods] [rounds]
import { gzipSync } from "node:zlib";
import { escapeGoJson } from "../runtime/codecs/encode-response.js";
import { envelopeRaw } from "../runtime/codecs/protobuf/envelope.js";
import { decodeProtobufObject } from "../runtime/codecs/protobuf/protobuf-body.js";
import { encodeProtobuf, encodeProtobufList } from "../runtime/codecs/protobuf/protobuf-response.js";
import { startServer } from "../runtime/index.js";

const pods = Number(process.argv[2] ?? 10_000);
const rounds = Number(process.argv[3] ?? 10);
const token = "bench";

type Json = Record<string, unknown>;

/** One pod as kapi stores and serves it, created through the API. */
async function storedPod(): Promise<Json> {
  const server = await startServer({ insecure: true, adminToken: token, controllers: false });
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  await fetch(`${server.url}/api/v1/namespaces`, {
    method: "POST",
    headers,
    body: JSON.stringify({ metadata: { name: "bench" } }),
  });
  const pod = {
    metadata: { name: "p", labels: { app: "bench", tier: "web" }, annotations: { "example.com/owner": "team-a" } },
    spec: {
      containers: [
        {
          name: "c",
          image: "nginx:1.27",
          ports: [{ containerPort: 80, name: "http" }],
          resources: { requests: { cpu: "100m", memory: "128Mi" }, limits: { memory: "256Mi" } },
          env: [{ name: "MODE", value: "bench" }],
          readinessProbe: { httpGet: { path: "/healthz", port: "http" }, periodSeconds: 5 },
        },
      ],
    },
  };
  const res = await fetch(`${server.url}/api/v1/namespaces/bench/pods`, {
    method: "POST",
    headers,
    body: JSON.stringify(pod),
  });
  const stored = (await res.json()) as Json;
  await server.close();
  return stored;
}

function copies(template: Json): Json[] {
  const meta = template.metadata as Json;
  return Array.from({ length: pods }, (_, i) => ({
    ...template,
    metadata: {
      ...meta,
      name: `p-${i}`,
      uid: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      resourceVersion: String(1000 + i),
    },
  }));
}

/** Median milliseconds of `rounds` runs, after one warm-up. */
function time(run: () => unknown): number {
  run();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const items = copies(await storedPod());
  const metadata = { resourceVersion: "20000" };
  const list = { kind: "PodList", apiVersion: "v1", metadata, items };
  const jsonList = () => Buffer.from(`${escapeGoJson(JSON.stringify(list))}\n`);
  const protobufList = () =>
    encodeProtobufList(
      "v1",
      "PodList",
      metadata,
      items.map((item) => envelopeRaw(encodeProtobuf(item))),
    );

  const jsonItems = items.map((item) => Buffer.from(escapeGoJson(JSON.stringify(item))));
  const protobufItems = items.map((item) => envelopeRaw(encodeProtobuf(item)));
  const jsonAssembled = () => {
    const parts: Buffer[] = [
      Buffer.from('{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"20000"},"items":['),
    ];
    jsonItems.forEach((item, i) => {
      if (i > 0) parts.push(Buffer.from(","));
      parts.push(item);
    });
    parts.push(Buffer.from("]}\n"));
    return Buffer.concat(parts);
  };
  const protobufAssembled = () => encodeProtobufList("v1", "PodList", metadata, protobufItems);

  const json = jsonList();
  const protobuf = protobufList();
  const row = (label: string, j: number, p: number, unit: string) =>
    console.log(
      `${label.padEnd(38)} JSON ${j.toFixed(1).padStart(8)} ${unit}   protobuf ${p.toFixed(1).padStart(8)} ${unit}   ${(p / j).toFixed(2)}×`,
    );
  console.log(
    `LIST of ${pods} pods (one pod: ${JSON.stringify(items[0]).length} bytes of JSON), median of ${rounds} rounds`,
  );
  row("size", json.length / 1e6, protobuf.length / 1e6, "MB");
  row(
    "size gzip level 1",
    gzipSync(json, { level: 1 }).length / 1e6,
    gzipSync(protobuf, { level: 1 }).length / 1e6,
    "MB",
  );
  row("encode whole list from objects", time(jsonList), time(protobufList), "ms");
  row("assemble from cached item bodies", time(jsonAssembled), time(protobufAssembled), "ms");
  row(
    "decode (JSON.parse / kapi decoder)",
    time(() => JSON.parse(json.toString())),
    time(() => decodeProtobufObject(protobuf)),
    "ms",
  );
}

await main();
