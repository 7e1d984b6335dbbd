// The requests the ServiceAccount admission tests send, and the parts of the answers they compare: the
// same steps were sent to kube-apiserver v1.36.2 and its answers recorded in
// test/data/admission/service-account/reference.json.

export type Step =
  | { note: string; op: "create"; resource: string; body: Record<string, unknown> }
  | { note: string; op: "wait-default" }
  | { note: string; op: "ephemeral"; pod: string; containers: unknown[] }
  | { note: string; op: "delete"; resource: string; name: string }
  | { note: string; op: "label"; pod: string };

export interface Recording {
  namespace: string;
  steps: (Step & { answer?: Answer })[];
}

export interface Answer {
  code: number;
  body: unknown;
}

type Json = Record<string, unknown>;

/** The random suffix of the token volume's name, in kube's generateName alphabet. */
export const tokenVolumeName = /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/;

/** Token volume names with their suffix replaced, once checked against kube's alphabet. */
function normalizeNames(value: unknown): unknown {
  if (typeof value === "string") {
    if (value.startsWith("kube-api-access-") && value !== "kube-api-access-mine") {
      return tokenVolumeName.test(value) ? "kube-api-access-<suffix>" : `unexpected ${value}`;
    }
    return value;
  }
  if (Array.isArray(value)) return value.map(normalizeNames);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalizeNames(v)]));
  }
  return value;
}

function mounts(list: unknown): unknown {
  return Array.isArray(list) ? list.map((c) => ({ name: c.name, volumeMounts: c.volumeMounts ?? null })) : null;
}

/** What the plugin decides about a pod: the account, the token volume and its mounts, the pull secrets. */
function podSummary(pod: Json): Json {
  const spec = (pod.spec ?? {}) as Json;
  return normalizeNames({
    serviceAccountName: spec.serviceAccountName ?? null,
    serviceAccount: spec.serviceAccount ?? null,
    automountServiceAccountToken: spec.automountServiceAccountToken ?? null,
    imagePullSecrets: spec.imagePullSecrets ?? null,
    volumes: spec.volumes ?? null,
    initContainers: mounts(spec.initContainers),
    containers: mounts(spec.containers),
    ephemeralContainers: mounts(spec.ephemeralContainers),
  }) as Json;
}

/** A pod as its summary, a Status whole, anything else by its kind. */
export function summarize(code: number, body: Json): Answer {
  if (body.kind === "Pod") return { code, body: podSummary(body) };
  if (body.kind === "Status") return { code, body };
  return { code, body: { kind: body.kind } };
}

export interface Client {
  call(method: string, path: string, body?: unknown, contentType?: string): Promise<{ code: number; body: Json }>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends one step; `wait-default` polls until the namespace's default account exists. */
export async function runStep(client: Client, namespace: string, step: Step): Promise<Answer | undefined> {
  const base = `/api/v1/namespaces/${namespace}`;
  switch (step.op) {
    case "create": {
      const path = step.resource === "namespaces" ? "/api/v1/namespaces" : `${base}/${step.resource}`;
      const r = await client.call("POST", path, step.body);
      return summarize(r.code, r.body);
    }
    case "wait-default":
      for (let i = 0; i < 100; i++) {
        if ((await client.call("GET", `${base}/serviceaccounts/default`)).code === 200) return undefined;
        await sleep(50);
      }
      throw new Error(`no default service account in ${namespace}`);
    case "ephemeral": {
      const current = await client.call("GET", `${base}/pods/${step.pod}`);
      const pod = current.body as { spec: Json };
      pod.spec.ephemeralContainers = step.containers;
      const r = await client.call("PUT", `${base}/pods/${step.pod}/ephemeralcontainers`, pod);
      return summarize(r.code, r.body);
    }
    case "delete": {
      const r = await client.call("DELETE", `${base}/${step.resource}/${step.name}`);
      return { code: r.code, body: null };
    }
    case "label": {
      const patch = { metadata: { labels: { touched: "yes" } } };
      const r = await client.call("PATCH", `${base}/pods/${step.pod}`, patch, "application/merge-patch+json");
      return summarize(r.code, r.body);
    }
  }
}

/** A client over fetch with a bearer token. */
export function fetchClient(url: string, token: string): Client {
  return {
    async call(method, path, body, contentType = "application/json") {
      const response = await fetch(url + path, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": contentType },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { code: response.status, body: (await response.json()) as Json };
    },
  };
}
