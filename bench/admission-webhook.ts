// What a no-op validating admission webhook adds to a create: the p50 of ConfigMap creates with one webhook
// registered (by url, HTTPS with a caBundle, answering `allowed: true`) as a ratio to the p50 without it.
// Runs against kapi (plain HTTP, in this process) and, when ../shared/reference's kube-apiserver is up
// (its start.sh), against it in the same run; the webhook server is the same for both.
//   npx tsx bench/admission-webhook.ts [creates]
import { readFileSync } from "node:fs";
import { Agent, createServer, request as httpsRequest } from "node:https";
import { homedir } from "node:os";
import { join } from "node:path";
import { createServingCertificates } from "../runtime/http/certificates.js";
import { startServer } from "../runtime/index.js";

const creates = Number(process.argv[2] ?? 400);

type Call = (method: string, path: string, body?: unknown) => Promise<number>;

/** A keep-alive client: kapi over plain HTTP through fetch, the reference over HTTPS without verification. */
function client(base: string, token: string): Call {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  if (base.startsWith("http:")) {
    return async (method, path, body) => {
      const res = await fetch(base + path, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      await res.arrayBuffer();
      return res.status;
    };
  }
  const agent = new Agent({ keepAlive: true, rejectUnauthorized: false });
  return (method, path, body) =>
    new Promise((resolve, reject) => {
      const req = httpsRequest(new URL(path, base), { method, headers, agent }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
}

const certificates = createServingCertificates({ dns: ["localhost"], ips: ["127.0.0.1"] });
const webhook = createServer({ cert: certificates.cert, key: certificates.key }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const review = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { request: { uid: string } };
    res.setHeader("content-type", "application/json");
    res.end(
      JSON.stringify({
        apiVersion: "admission.k8s.io/v1",
        kind: "AdmissionReview",
        response: { uid: review.request.uid, allowed: true },
      }),
    );
  });
});
await new Promise<void>((resolve) => webhook.listen(0, "127.0.0.1", resolve));
const webhookPort = (webhook.address() as { port: number }).port;

function configuration(name: string) {
  return {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingWebhookConfiguration",
    metadata: { name },
    webhooks: [
      {
        name: "noop.bench.kapi.dev",
        clientConfig: {
          url: `https://127.0.0.1:${webhookPort}/validate`,
          caBundle: Buffer.from(certificates.caCert).toString("base64"),
        },
        rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] }],
        // Only this run's objects, so that a shared reference server is not slowed for anyone else.
        objectSelector: { matchLabels: { "bench.kapi.dev/run": name } },
        sideEffects: "None",
        admissionReviewVersions: ["v1"],
        failurePolicy: "Fail",
      },
    ],
  };
}

function p50(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function createTimes(call: Call, namespace: string, run: string, label: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < creates; i++) {
    const body = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: `${run}-${label}-${i}`, labels: { "bench.kapi.dev/run": run } },
      data: { key: "value" },
    };
    const started = performance.now();
    const status = await call("POST", `/api/v1/namespaces/${namespace}/configmaps`, body);
    times.push(performance.now() - started);
    if (status !== 201) throw new Error(`${label}: create answered ${status}`);
  }
  return times;
}

async function measure(name: string, call: Call): Promise<void> {
  const run = `kapi-bench-${process.pid}-${Date.now()}`;
  // The default namespace: a namespace deleted on a reference without its controller manager never goes.
  const namespace = "default";
  const webhooks = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";
  try {
    await createTimes(call, namespace, run, "warm");
    const without = p50(await createTimes(call, namespace, run, "plain"));
    if ((await call("POST", webhooks, configuration(run))) !== 201) throw new Error(`${name}: webhook refused`);
    // Configurations reach kube-apiserver's webhook plugin through an informer: give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const withWebhook = p50(await createTimes(call, namespace, run, "hooked"));
    console.log(
      `${name.padEnd(16)} create p50 ${without.toFixed(2)} ms, with a no-op webhook ${withWebhook.toFixed(2)} ms: ` +
        `×${(withWebhook / without).toFixed(2)} (+${(withWebhook - without).toFixed(2)} ms)`,
    );
  } finally {
    await call("DELETE", `${webhooks}/${run}`);
    await call("DELETE", `/api/v1/namespaces/${namespace}/configmaps?labelSelector=bench.kapi.dev%2Frun%3D${run}`);
  }
}

const token = "bench";
const kapi = await startServer({ insecure: true, adminToken: token, controllers: false });
await measure("kapi", client(kapi.url, token));
await kapi.close();

const referenceToken = join(homedir(), ".cache/kapi-reference/admin.token");
let reference: Call | undefined;
try {
  reference = client("https://127.0.0.1:36443", readFileSync(referenceToken, "utf8").trim());
  if ((await reference("GET", "/readyz")) !== 200) reference = undefined;
} catch {
  reference = undefined;
}
if (reference === undefined)
  console.log("kube-apiserver   not measured: ../shared/reference is not running (start.sh)");
else await measure("kube-apiserver", reference);
webhook.close();
