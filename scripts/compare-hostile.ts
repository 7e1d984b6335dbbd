// Sends issue 16's named hostile requests, then a seeded sample of fuzz requests, to each server given by a
// kubeconfig, and prints how each answered: how kapi's answers were checked against kube-apiserver's.
//
//   KUBECONFIG=~/.cache/kapi-reference/admin.kubeconfig npx tsx scripts/compare-hostile.ts
//   npx tsx scripts/compare-hostile.ts --kubeconfig ref.kubeconfig --kapi --seed 7 --sample 500
//   … --only 'X-Big'   (only the requests whose description contains the text)
//
// --kapi adds a `kapi serve` child process (memory store). Writes carry dryRun=All; the seed objects live in
// the namespace h4-fuzz and the CustomResourceDefinition widgets.h4fuzz.example.com, both removed at the end.
import { parseArgs } from "node:util";
import { collectionPath, kinds } from "../test/e2e/hostile/corpus.js";
import { FuzzRequests } from "../test/e2e/hostile/fuzz-requests.js";
import {
  describeRequest,
  type HostileRequest,
  type HttpRequest,
  type Outcome,
  outcomeText,
} from "../test/e2e/hostile/hostile-request.js";
import { KapiChild } from "../test/e2e/hostile/kapi-child.js";
import { namedCases } from "../test/e2e/hostile/named-cases.js";
import { Prng } from "../test/e2e/hostile/prng.js";
import { Sender, targetFromKubeconfig } from "../test/e2e/hostile/send-request.js";

const namespace = "h4-fuzz";

const { values } = parseArgs({
  options: {
    kubeconfig: { type: "string", multiple: true },
    kapi: { type: "boolean", default: false },
    seed: { type: "string", default: "16" },
    sample: { type: "string", default: "200" },
    "named-only": { type: "boolean", default: false },
    only: { type: "string" },
  },
});

function admin(method: string, path: string, body?: unknown): HttpRequest {
  return {
    kind: "http",
    inputClass: "setup",
    method,
    path,
    headers: { "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: Buffer.from(JSON.stringify(body)) }),
    as: "admin",
  };
}

/** The namespace, the definition and the seed objects the fuzz sample reads, patches and updates. */
async function setUp(sender: Sender): Promise<void> {
  await sender.send(
    admin("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } }),
  );
  const seeds = new FuzzRequests(new Prng(0), { namespace });
  for (const kind of kinds) {
    // The definition's resource is served a moment after it is created.
    for (let attempt = 0; attempt < 20; attempt++) {
      const outcome = await sender.send(seeds.seedRequest(kind));
      if (outcome.kind !== "status" || outcome.status !== 404) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/**
 * Deletes the seed objects one by one, then the namespace, and finalizes it: a reference server may run
 * without a controller manager, whose namespace controller would otherwise empty and finalize it.
 */
async function tearDown(sender: Sender): Promise<void> {
  for (const kind of [...kinds].reverse()) {
    await sender.send(admin("DELETE", `${collectionPath(kind, namespace)}/${kind.seedName}`));
  }
  await sender.send(admin("DELETE", `/api/v1/namespaces/${namespace}`));
  const finalized = { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace }, spec: { finalizers: [] } };
  await sender.send(admin("PUT", `/api/v1/namespaces/${namespace}/finalize`, finalized));
}

/** A Status body's reason and message, or the start of any other body. */
function message(body: string): string {
  try {
    const status = JSON.parse(body) as { reason?: string; message?: string };
    return `${status.reason ?? ""}: ${status.message ?? ""}`.slice(0, 300);
  } catch {
    return JSON.stringify(body.slice(0, 200));
  }
}

/** The `--kapi` server: a `kapi serve` child, started anew (and set up again) when a request brings it down. */
class KapiServer {
  private child: KapiChild | undefined;
  sender: Sender | undefined;

  async start(): Promise<Sender> {
    this.child = await KapiChild.start();
    this.sender = new Sender(targetFromKubeconfig("kapi", { path: this.child.kubeconfigPath }), 1);
    await setUp(this.sender);
    return this.sender;
  }

  /** A note, and a new child, when the last request left this one dead or deaf; undefined otherwise. */
  async revived(): Promise<string | undefined> {
    if (this.child === undefined || this.sender === undefined) return undefined;
    if (this.child.exitStatus === undefined) {
      const livez = await this.sender.send(admin("GET", "/livez"), { timeoutMs: 3_000 });
      if (livez.kind === "status" && livez.status === 200) return undefined;
    }
    const how = this.child.exitStatus ?? "stopped answering /livez";
    const note = `kapi ${how}; started anew. Its last words:\n${this.child.recentOutput.slice(-1500)}`;
    this.sender?.close();
    await this.child.stop();
    await this.start();
    return note;
  }

  async stop(): Promise<void> {
    this.sender?.close();
    await this.child?.stop();
  }
}

async function main(): Promise<number> {
  const paths = values.kubeconfig ?? (process.env.KUBECONFIG ? process.env.KUBECONFIG.split(":") : []);
  const names = paths.map((_, i) => `server${i + 1}`);
  const senders = paths.map((path, i) => new Sender(targetFromKubeconfig(names[i] as string, { path }), 1));
  const kapi = values.kapi ? new KapiServer() : undefined;
  if (kapi) names.push("kapi");
  if (names.length === 0) {
    console.error(
      "usage: compare-hostile.ts [--kubeconfig FILE]... [--kapi] [--seed N] [--sample N] [--named-only] [--only TEXT]",
    );
    return 2;
  }
  const requests: { label: string; request: HostileRequest }[] = namedCases().map((c) => ({
    label: c.name,
    request: c.request,
  }));
  const seed = Number(values.seed);
  if (!values["named-only"]) {
    const fuzz = new FuzzRequests(new Prng(seed), { namespace, dryRun: true });
    for (let i = 0; i < Number(values.sample); i++) {
      const request = fuzz.next();
      requests.push({ label: describeRequest(request, 160), request });
    }
  }
  let differing = 0;
  try {
    for (const sender of senders) await setUp(sender);
    if (kapi) await kapi.start();
    const all = () => [...senders, ...(kapi?.sender ? [kapi.sender] : [])];
    console.log(
      `servers: ${all()
        .map((s) => `${s.target.name}=https://${s.target.host}:${s.target.port}`)
        .join(" ")}; fuzz seed ${seed}`,
    );
    for (const { label, request } of requests) {
      if (values.only !== undefined && !label.includes(values.only)) continue;
      const outcomes: Outcome[] = [];
      for (const sender of all()) outcomes.push(await sender.send(request, { timeoutMs: 10_000 }));
      const answers = outcomes.map(outcomeText);
      const same = answers.every((a) => a === answers[0]);
      console.log(`${same ? " " : "≠"} ${answers.map((a, i) => `${names[i]}=${a}`).join(" ")}  ${label}`);
      if (!same) {
        differing++;
        outcomes.forEach((outcome, i) => {
          if (outcome.kind === "status") console.log(`    ${names[i]}: ${message(outcome.body)}`);
        });
      }
      const note = await kapi?.revived();
      if (note !== undefined) console.log(`    ${note.replaceAll("\n", "\n    ")}`);
    }
  } finally {
    for (const sender of senders) {
      await tearDown(sender);
      sender.close();
    }
    await kapi?.stop();
  }
  console.log(`${requests.length} requests, ${differing} answered differently`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
