// Request bounds end to end over real sockets: max-in-flight 429s, the request deadline's 504, idle and
// header timeouts closing connections, and the body read only after authorization. Kube's answers were
// checked against kube-apiserver v1.36.2.
import { mkdtempSync, writeFileSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, type TLSSocket } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, type StartServerOptions, startServer } from "../../../runtime/server/start-server.js";

const userToken = "user-token";
const tokenFile = join(mkdtempSync(join(tmpdir(), "kapi-limits-")), "tokens.csv");
writeFileSync(tokenFile, `${userToken},plain-user,1001\n`);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(
  server: RunningServer,
  method: string,
  path: string,
  options: { token?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const url = new URL(path, server.url);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      {
        method,
        rejectUnauthorized: false,
        agent: false,
        headers: {
          ...(options.token === undefined ? {} : { Authorization: `Bearer ${options.token}` }),
          ...(options.body === undefined ? {} : { "Content-Type": "application/json" }),
          ...options.headers,
        },
      },
      (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** A POST whose body never finishes: it holds its place in the pipeline until the socket is destroyed. */
function stalledPost(server: RunningServer, token: string): Promise<TLSSocket> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      socket.write(
        "POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: kapi\r\n" +
          `Authorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
      );
      resolve(socket);
    });
    socket.on("error", reject);
  });
}

function closed(socket: TLSSocket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) resolve();
    socket.on("close", () => resolve());
  });
}

async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(check()).toBe(true);
}

function start(options: StartServerOptions): Promise<RunningServer> {
  return startServer({
    controllers: false,
    authentication: { tokenAuthFile: tokenFile },
    authorization: { authorizationMode: "AlwaysAllow" },
    ...options,
  });
}

describe("max in flight", () => {
  let server: RunningServer;
  beforeAll(async () => {
    // The max-in-flight filter limits only with API Priority and Fairness off, as in kube-apiserver.
    server = await start({ maxRequestsInflight: 1, maxMutatingRequestsInflight: 2, enablePriorityAndFairness: false });
  });
  afterAll(() => server.close());

  it("answers 429 with Retry-After: 1 once the mutating pool is full, and serves again once it frees", async () => {
    const held = await Promise.all([stalledPost(server, userToken), stalledPost(server, userToken)]);
    // The held requests are counted once they pass authentication.
    let refused: Answer | undefined;
    for (let i = 0; i < 100 && refused?.status !== 429; i++) {
      refused = await send(server, "POST", "/api/v1/namespaces/default/configmaps", {
        token: userToken,
        body: JSON.stringify({ metadata: { name: `cm-${i}` } }),
      });
      if (refused.status !== 429) await new Promise((r) => setTimeout(r, 20));
    }
    expect(refused?.status).toBe(429);
    expect(refused?.headers["retry-after"]).toBe("1");
    expect(JSON.parse(refused?.body ?? "{}")).toMatchObject({
      kind: "Status",
      reason: "TooManyRequests",
      message: "Too many requests, please try again later.",
      code: 429,
    });
    // Reads have their own pool; system:masters is never refused.
    expect((await send(server, "GET", "/api/v1/namespaces", { token: userToken })).status).toBe(200);
    const admin = await send(server, "POST", "/api/v1/namespaces/default/configmaps", {
      token: server.adminToken,
      body: JSON.stringify({ metadata: { name: "by-admin" } }),
    });
    expect(admin.status).toBe(201);
    for (const socket of held) socket.destroy();
    await Promise.all(held.map(closed));
    let after: Answer | undefined;
    for (let i = 0; i < 100 && after?.status !== 201; i++) {
      after = await send(server, "POST", "/api/v1/namespaces/default/configmaps", {
        token: userToken,
        body: JSON.stringify({ metadata: { name: `after-${i}` } }),
      });
    }
    expect(after?.status).toBe(201);
  });

  it("does not count watches", async () => {
    const watches = await Promise.all(
      [1, 2, 3].map(
        () =>
          new Promise<() => void>((resolve, reject) => {
            const req = httpsRequest(
              new URL("/api/v1/namespaces?watch=true", server.url),
              { rejectUnauthorized: false, agent: false, headers: { Authorization: `Bearer ${userToken}` } },
              (res) => resolve(() => res.destroy()),
            );
            req.on("error", reject);
            req.end();
          }),
      ),
    );
    expect((await send(server, "GET", "/api/v1/namespaces", { token: userToken })).status).toBe(200);
    for (const stop of watches) stop();
  });
});

describe("request deadline", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await start({ requestTimeoutMs: 300 });
  });
  afterAll(() => server.close());

  it("answers 504 when a request outlives --request-timeout", async () => {
    const socket = await stalledPost(server, userToken);
    const response = await new Promise<string>((resolve) => {
      let text = "";
      socket.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes("\r\n\r\n{") && text.trimEnd().endsWith("}")) resolve(text);
      });
    });
    socket.destroy();
    expect(response.split("\r\n")[0]).toBe("HTTP/1.1 504 Gateway Timeout");
    expect(JSON.parse(response.slice(response.indexOf("\r\n\r\n") + 4))).toMatchObject({
      status: "Failure",
      message: "Timeout: request did not complete within the allotted timeout",
      reason: "Timeout",
      code: 504,
    });
  });

  it("takes a shorter timeout from the query and refuses a malformed one", async () => {
    expect((await send(server, "GET", "/api/v1/namespaces?timeout=1ns", { token: userToken })).status).toBe(504);
    expect((await send(server, "GET", "/api/v1/namespaces?timeout=-1s", { token: userToken })).status).toBe(200);
    const bad = await send(server, "GET", "/version?timeout=abc", { token: userToken });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).message).toBe(
      'invalid timeout specified in the request URL - time: invalid duration "abc"',
    );
  });
});

describe("connections", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await start({ connectionTimeouts: { idleMs: 300, headersMs: 400 } });
  });
  afterAll(() => server.close());

  function open(): Promise<TLSSocket> {
    const { hostname, port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => resolve(socket));
      socket.on("error", reject);
    });
  }

  it("closes a connection that sends nothing, and one whose headers never end", async () => {
    const silent = await open();
    const slow = await open();
    slow.write("GET /version HTTP/1.1\r\nHost: kapi\r\n");
    const timer = setInterval(() => slow.writable && slow.write("X-Slow: 1\r\n"), 100);
    await Promise.all([closed(silent), closed(slow)]);
    clearInterval(timer);
  });

  it("closes a keep-alive connection once it has been idle", async () => {
    const socket = await open();
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.write("GET /version HTTP/1.1\r\nHost: kapi\r\n\r\n");
    await eventually(() => text.includes('"gitVersion"'));
    expect(text).toMatch(/Connection: keep-alive/i);
    await closed(socket);
  });
});

describe("the body after authorization", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ controllers: false, authentication: { tokenAuthFile: tokenFile } });
  });
  afterAll(() => server.close());

  it("refuses an unauthorized upload without asking for its body", async () => {
    const { hostname, port } = new URL(server.url);
    const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false });
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.write(
      "POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: kapi\r\nContent-Type: application/json\r\n" +
        `Content-Length: ${3 * 1024 * 1024}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
    await closed(socket);
    expect(text.split("\r\n")[0]).toBe("HTTP/1.1 403 Forbidden");
    expect(text).not.toContain("100 Continue");
  });

  it("answers an unauthorized upload before its body has arrived", async () => {
    const { hostname, port } = new URL(server.url);
    const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false });
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.write(
      "POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: kapi\r\nContent-Type: application/json\r\n" +
        `Content-Length: ${3 * 1024 * 1024}\r\n\r\n{"metadata":`,
    );
    await eventually(() => text.includes("\r\n\r\n"));
    socket.destroy();
    expect(text.split("\r\n")[0]).toBe("HTTP/1.1 403 Forbidden");
  });

  it("tells an authorized client to go on and reads its body", async () => {
    const { hostname, port } = new URL(server.url);
    const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false });
    let text = "";
    const body = JSON.stringify({ metadata: { name: "continued" } });
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (text.startsWith("HTTP/1.1 100 Continue") && text.length < 30) socket.write(body);
    });
    socket.write(
      "POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: kapi\r\nContent-Type: application/json\r\n" +
        `Authorization: Bearer ${server.adminToken}\r\nContent-Length: ${body.length}\r\n` +
        "Expect: 100-continue\r\nConnection: close\r\n\r\n",
    );
    await closed(socket);
    expect(text).toContain("HTTP/1.1 201 Created");
  });
});

describe("a client that goes away mid-upload", () => {
  const logged: unknown[] = [];
  const debug: string[] = [];
  let server: RunningServer;
  beforeAll(async () => {
    server = await start({ log: (message, error) => logged.push([message, error]), debug: (line) => debug.push(line) });
  });
  afterAll(() => server.close());

  it("is one debug line, not a logged error", async () => {
    const socket = await stalledPost(server, userToken);
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await eventually(() => debug.some((line) => line.includes("client went away")));
    expect(debug.filter((line) => line.includes("client went away"))).toHaveLength(1);
    expect(logged).toEqual([]);
    expect((await send(server, "GET", "/version")).status).toBe(200);
  });
});
