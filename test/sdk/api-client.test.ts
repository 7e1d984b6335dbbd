import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { ApiClient, ApiError, defaultKubeconfigPath, KubeconfigError, type WatchEvent } from "../../sdk/index.js";
import { rejection, serverPerFile, typedClients } from "./client-fixture.js";
import { type ExecPluginFixture, writeExecPlugin } from "./exec-plugin-fixture.js";

const kapi = serverPerFile();
let dir: string;
/** The admin kubeconfig's pieces: the server's CA, the admin's client certificate and key (base64 PEM). */
let admin: { server: string; ca: string; cert: string; key: string };
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "kapi-api-client-"));
  const config = parse(kapi().server.kubeconfig);
  admin = {
    server: kapi().server.url,
    ca: config.clusters[0].cluster["certificate-authority-data"],
    cert: config.users[0].user["client-certificate-data"],
    key: config.users[0].user["client-key-data"],
  };
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A kubeconfig with one context `main` (and more from `contexts`) for `user` against `cluster`. */
function kubeconfig(
  cluster: Record<string, unknown>,
  user: Record<string, unknown>,
  contexts: { name: string; namespace?: string }[] = [],
): string {
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: "c", cluster }],
    users: [{ name: "u", user }],
    contexts: [{ name: "main", context: { cluster: "c", user: "u" } }].concat(
      contexts.map(({ name, namespace }) => ({
        name,
        context: { cluster: "c", user: "u", ...(namespace ? { namespace } : {}) },
      })),
    ),
    "current-context": "main",
  });
}

async function namespaceNames(api: ApiClient): Promise<string[]> {
  const list = await typedClients(api).namespaces.list({});
  return list.items.map((n) => n.metadata?.name as string);
}

function load(text: string, context?: string): ApiClient {
  return ApiClient.fromKubeconfig({ text, baseDir: dir, ...(context === undefined ? {} : { context }) });
}

describe("ApiClient.fromKubeconfig against kapi", () => {
  it("authenticates with a client certificate from a kubeconfig file", async () => {
    const path = join(dir, "admin.kubeconfig");
    writeFileSync(path, kapi().server.kubeconfig);
    const api = ApiClient.fromKubeconfig({ path });
    expect(api.namespace).toBe("default");
    expect(await namespaceNames(api)).toContain("kube-system");
  });

  it("authenticates with a bearer token and reports a rejected one as a 401 ApiError", async () => {
    const cluster = { server: admin.server, "certificate-authority-data": admin.ca };
    expect(await namespaceNames(load(kubeconfig(cluster, { token: kapi().server.adminToken })))).toContain("default");
    const error = await rejection(namespaceNames(load(kubeconfig(cluster, { token: "wrong" }))));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 401, reason: "Unauthorized" });
  });

  it("reads a token file at each request and a CA file relative to the kubeconfig", async () => {
    writeFileSync(join(dir, "ca.crt"), Buffer.from(admin.ca, "base64"));
    writeFileSync(join(dir, "token"), `${kapi().server.adminToken}\n`);
    const api = load(kubeconfig({ server: admin.server, "certificate-authority": "ca.crt" }, { tokenFile: "token" }));
    expect(await namespaceNames(api)).toContain("default");
    writeFileSync(join(dir, "token"), "rotated-away");
    expect(await rejection(namespaceNames(api))).toMatchObject({ code: 401 });
  });

  it("skips server verification only with insecure-skip-tls-verify", async () => {
    const token = { token: kapi().server.adminToken };
    const insecure = load(kubeconfig({ server: admin.server, "insecure-skip-tls-verify": true }, token));
    expect(await namespaceNames(insecure)).toContain("default");
    const unverified = await rejection(namespaceNames(load(kubeconfig({ server: admin.server }, token))));
    expect((unverified as NodeJS.ErrnoException).code).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY|CERT/);
    const both = { server: admin.server, "insecure-skip-tls-verify": true, "certificate-authority-data": admin.ca };
    expect(() => load(kubeconfig(both, token))).toThrow(
      new KubeconfigError(
        "invalid configuration: specifying a root certificates file with the insecure flag is not allowed",
      ),
    );
  });

  it("runs an exec plugin for credentials", async () => {
    const plugin: ExecPluginFixture = writeExecPlugin({
      "client.crt": Buffer.from(admin.cert, "base64").toString(),
      "client.key": Buffer.from(admin.key, "base64").toString(),
    });
    try {
      const exec = {
        apiVersion: "client.authentication.k8s.io/v1",
        command: plugin.command,
        interactiveMode: "Never",
        env: [{ name: "PLUGIN_MODE", value: "cert" }],
      };
      const api = load(kubeconfig({ server: admin.server, "certificate-authority-data": admin.ca }, { exec }));
      expect(await namespaceNames(api)).toContain("default");
      expect(await namespaceNames(api)).toContain("default");
      expect(plugin.runs()).toBe(1);
    } finally {
      plugin.remove();
    }
  });

  it("picks a context and its namespace", async () => {
    const text = kubeconfig(
      { server: admin.server, "certificate-authority-data": admin.ca },
      { token: kapi().server.adminToken },
      [{ name: "team", namespace: "team-a" }],
    );
    expect(load(text).namespace).toBe("default");
    const team = load(text, "team");
    expect(team.config.context).toBe("team");
    expect(team.namespace).toBe("team-a");
    expect(() => load(text, "nope")).toThrow(new KubeconfigError("context was not found for specified context: nope"));
  });

  it("refuses proxy-url clearly", () => {
    const text = kubeconfig({ server: admin.server, "proxy-url": "http://proxy:3128" }, { token: "t" });
    expect(() => load(text)).toThrow(KubeconfigError);
    expect(() => load(text)).toThrow('cluster "c": proxy-url is not supported by this client');
  });

  it("finds the kubeconfig as client-go does", () => {
    expect(defaultKubeconfigPath({ KUBECONFIG: `${join(dir, "a")}:${join(dir, "b")}` })).toBe(join(dir, "a"));
    expect(defaultKubeconfigPath({ KUBECONFIG: `:${join(dir, "b")}` })).toBe(join(dir, "b"));
    expect(defaultKubeconfigPath({})).toBe(join(homedir(), ".kube", "config"));
    const path = join(dir, "from-env.kubeconfig");
    writeFileSync(path, kubeconfig({ server: admin.server }, { token: "t" }, [{ name: "env", namespace: "env-ns" }]));
    const saved = process.env.KUBECONFIG;
    process.env.KUBECONFIG = path;
    try {
      expect(ApiClient.fromKubeconfig({ context: "env" }).namespace).toBe("env-ns");
    } finally {
      if (saved === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved;
    }
  });
});

describe("ApiClient against a scripted server", () => {
  let stub: Server;
  let url: string;
  let handle: (req: IncomingMessage, res: ServerResponse) => void = () => {};
  const requests: { method: string; url: string; authorization?: string; contentType?: string }[] = [];
  beforeAll(async () => {
    stub = createServer((req, res) => {
      requests.push({
        method: req.method as string,
        url: req.url as string,
        ...(req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization }),
        ...(req.headers["content-type"] === undefined ? {} : { contentType: req.headers["content-type"] }),
      });
      req.resume();
      req.on("end", () => handle(req, res));
    });
    await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    stub.closeAllConnections();
    await new Promise((resolve) => stub.close(resolve));
  });

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };

  it("sends basic authentication and refuses it beside a token", async () => {
    requests.length = 0;
    handle = (_req, res) => json(res, 200, { ok: true });
    const api = load(kubeconfig({ server: url }, { username: "jane", password: "s3cret" }));
    expect(await api.request({ path: "/api" })).toEqual({ ok: true });
    expect(requests[0]?.authorization).toBe(`Basic ${Buffer.from("jane:s3cret").toString("base64")}`);
    expect(() => load(kubeconfig({ server: url }, { username: "jane", password: "p", token: "t" }))).toThrow(
      "invalid configuration: more than one authentication method found for u; found [token basicAuth], only one is allowed",
    );
  });

  it("sends query parameters and patch content types", async () => {
    requests.length = 0;
    handle = (_req, res) => json(res, 200, { metadata: { name: "x" } });
    const { configMaps } = typedClients(load(kubeconfig({ server: url }, {})));
    for (const type of ["json", "merge", "strategic", "apply"] as const) {
      const force = type === "apply" ? { force: true } : {};
      await configMaps.patch("x", {}, type, { namespace: "ns", fieldManager: "m", dryRun: "All", ...force });
    }
    expect(requests.map((r) => r.contentType)).toEqual([
      "application/json-patch+json",
      "application/merge-patch+json",
      "application/strategic-merge-patch+json",
      "application/apply-patch+yaml",
    ]);
    expect(requests[3]?.url).toBe("/api/v1/namespaces/ns/configmaps/x?dryRun=All&fieldManager=m&force=true");
    expect(requests[0]?.url).toBe("/api/v1/namespaces/ns/configmaps/x?dryRun=All&fieldManager=m");
  });

  it("turns an answer without a Status into client-go's Status", async () => {
    handle = (_req, res) => {
      res.writeHead(503, { "content-type": "text/plain" });
      res.end("overloaded");
    };
    const error = await rejection(load(kubeconfig({ server: url }, {})).request({ path: "/api" }));
    expect(error).toMatchObject({
      code: 503,
      reason: "ServiceUnavailable",
      message: "the server is currently unable to handle the request",
      details: { causes: [{ reason: "UnexpectedServerResponse", message: "overloaded" }] },
    });
  });

  it("resumes a watch from bookmarks and dropped connections, and relists on 410", async () => {
    requests.length = 0;
    const object = (name: string, rv: string) => ({ metadata: { name, namespace: "ns", resourceVersion: rv } });
    const line = (type: string, obj: unknown) => `${JSON.stringify({ type, object: obj })}\n`;
    let watches = 0;
    handle = (req, res) => {
      if (!(req.url as string).includes("watch=true")) {
        return json(res, 200, { metadata: { resourceVersion: "70" }, items: [object("fresh", "69")] });
      }
      watches++;
      res.writeHead(200, { "content-type": "application/json" });
      if (watches === 1) {
        // A bookmark, then the server ends the watch (its timeout).
        res.end(line("BOOKMARK", { metadata: { resourceVersion: "50" } }));
      } else if (watches === 2) {
        // An event split over two writes, then the connection drops.
        const text = line("ADDED", object("a", "51"));
        res.write(text.slice(0, 10));
        setTimeout(() => {
          res.write(text.slice(10));
          setTimeout(() => res.socket?.destroy(), 20);
        }, 20);
      } else if (watches === 3) {
        res.end(
          line("ERROR", { kind: "Status", code: 410, reason: "Expired", message: "too old resource version: 51 (60)" }),
        );
      } else {
        res.write(line("MODIFIED", object("fresh", "71")));
      }
    };
    const { configMaps } = typedClients(load(kubeconfig({ server: url }, {})));
    const abort = new AbortController();
    const seen: WatchEvent<unknown>[] = [];
    for await (const event of configMaps.watch({
      namespace: "ns",
      resourceVersion: "40",
      retryDelayMs: 10,
      signal: abort.signal,
    })) {
      seen.push(event);
      if (event.type === "MODIFIED") abort.abort();
    }
    expect(seen).toEqual([
      { type: "BOOKMARK", object: { metadata: { resourceVersion: "50" } } },
      { type: "ADDED", object: object("a", "51") },
      { type: "RELISTED", items: [object("fresh", "69")], resourceVersion: "70" },
      { type: "MODIFIED", object: object("fresh", "71") },
    ]);
    const watchQueries = requests
      .filter((r) => r.url.includes("watch=true"))
      .map((r) => new URL(r.url, url).searchParams);
    expect(watchQueries.map((q) => q.get("resourceVersion"))).toEqual(["40", "50", "51", "70"]);
    expect(watchQueries.every((q) => q.get("allowWatchBookmarks") === "true")).toBe(true);
    const list = requests.find((r) => !r.url.includes("watch=true"));
    expect(list?.url).toBe("/api/v1/namespaces/ns/configmaps?limit=500");
  });
});
