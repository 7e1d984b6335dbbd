// How watches end, against a running server over TLS: a client that stops reading is disconnected and
// releases its watch, every disconnect releases it, a watch without timeoutSeconds lasts between
// --min-request-timeout and twice it, and a shutting-down server ends open watches with a clean chunked end.
import { Agent, request } from "node:https";
import { connect, type TLSSocket } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { watchLifetimeMs } from "../../../runtime/handlers/watch-handler.js";
import { type RunningServer, startServer } from "../../../runtime/index.js";
import { registeredWatchers } from "../../../runtime/watch-cache/registered-watchers.js";
import { eventually } from "../controllers/controller-harness.js";

const token = "watch-lifetime-token";
/** 300 ConfigMaps of 100 KiB: a watch's initial events that back the server up on a client that does not read. */
const large = "/api/v1/namespaces/watch-lifetime-large/configmaps";
/** Where 5,000 ConfigMaps of 8 KiB are created while a client watches without reading. */
const changing = "/api/v1/namespaces/watch-lifetime-changing/configmaps";

interface Answer {
  status: number;
  body: string;
  /** True when the response ended as its framing says it should (for a watch, the chunked end). */
  complete: boolean;
}

function call(server: RunningServer, agent: Agent, method: string, path: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}${path}`,
      {
        method,
        agent,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, complete: res.complete }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** A watch over a raw TLS socket, resolved once the response's head has arrived. */
function rawWatch(server: RunningServer, path: string): Promise<{ socket: TLSSocket; head: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    });
    let received = "";
    const onData = (chunk: Buffer) => {
      received += chunk.toString("latin1");
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      socket.off("data", onData);
      resolve({ socket, head: received.slice(0, end) });
    };
    socket.on("data", onData);
    socket.on("error", reject);
  });
}

function closed(socket: TLSSocket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.closed) resolve();
    else socket.once("close", () => resolve());
  });
}

async function createAll(server: RunningServer, agent: Agent, path: string, count: number, size: number) {
  const blob = "x".repeat(size);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const name = `cm-${next++}`;
      const created = await call(server, agent, "POST", path, {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name },
        data: { blob },
      });
      expect(created.status).toBe(201);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

describe("watches that clients abandon", () => {
  let server: RunningServer;
  const agent = new Agent({ keepAlive: true, maxSockets: 16, rejectUnauthorized: false });
  let baseline: number;

  beforeAll(async () => {
    server = await startServer({ adminToken: token, controllers: false });
    for (const name of ["watch-lifetime-large", "watch-lifetime-changing"]) {
      const created = await call(server, agent, "POST", "/api/v1/namespaces", {
        apiVersion: "v1",
        kind: "Namespace",
        metadata: { name },
      });
      expect(created.status).toBe(201);
    }
    await createAll(server, agent, large, 300, 100 * 1024);
    // The server's own informers watch too.
    baseline = registeredWatchers();
  });
  afterAll(async () => {
    agent.destroy();
    await server?.close();
  });

  it("disconnects a client that stops reading while 5,000 ConfigMaps change, and releases its watch", async () => {
    const { socket, head } = await rawWatch(server, `${changing}?watch=1`);
    socket.pause();
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).toContain("Transfer-Encoding: chunked");
    expect(registeredWatchers()).toBe(baseline + 1);

    await createAll(server, agent, changing, 5000, 8 * 1024);
    await eventually(() => expect(registeredWatchers()).toBe(baseline));
    // What the kernel still held reaches the client, then the connection is over, without a chunked end.
    let tail = "";
    socket.on("data", (chunk: Buffer) => {
      tail = (tail + chunk.toString("latin1")).slice(-16);
    });
    socket.resume();
    await closed(socket);
    expect(tail.endsWith("\r\n0\r\n\r\n")).toBe(false);
  });

  it("releases every watch whose client disconnects, also while the server waits on a full socket", async () => {
    for (let round = 0; round < 30; round++) {
      const { socket } = await rawWatch(server, `${large}?watch=1`);
      if (round % 2 === 0) {
        socket.pause();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      socket.destroy();
    }
    await eventually(() => expect(registeredWatchers()).toBe(baseline));
  });

  it("gives an ended watch's bytes a grace to reach its client, then disconnects a client that does not read", async () => {
    const stalled = await rawWatch(server, `${large}?watch=1&timeoutSeconds=1`);
    const slow = await rawWatch(server, `${large}?watch=1&timeoutSeconds=1`);
    stalled.socket.pause();
    slow.socket.pause();
    const graceOver = new Promise((resolve) => setTimeout(resolve, 1000 + 5000 + 500));
    await eventually(() => expect(registeredWatchers()).toBe(baseline));
    // The slow client takes the rest of its watch and the chunked end within the grace.
    let slowTail = "";
    const slowEnded = new Promise<void>((resolve) => {
      slow.socket.on("data", (chunk: Buffer) => {
        slowTail = (slowTail + chunk.toString("latin1")).slice(-256);
        if (slowTail.endsWith("\r\n0\r\n\r\n")) resolve();
      });
    });
    slow.socket.resume();
    await slowEnded;
    await graceOver;
    // The stalled one was disconnected: it reads what the kernel held, then the end of the connection.
    let stalledTail = "";
    stalled.socket.on("data", (chunk: Buffer) => {
      stalledTail = (stalledTail + chunk.toString("latin1")).slice(-16);
    });
    stalled.socket.resume();
    await closed(stalled.socket);
    expect(stalledTail.endsWith("\r\n0\r\n\r\n")).toBe(false);
    // The slow one's connection outlived the grace and serves its next request.
    slowTail = "";
    slow.socket.write(`GET /version HTTP/1.1\r\nHost: kapi\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    await eventually(() => expect(slowTail).toContain("}"));
    expect(slowTail).toContain('"platform"');
    slow.socket.destroy();
  });

  it("releases watches that end on their own", async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(server, agent, "GET", `${large}?watch=1&fieldSelector=metadata.name%3Dnone&timeoutSeconds=1`),
      ),
    );
    for (const answer of answers) expect(answer).toMatchObject({ status: 200, body: "", complete: true });
    expect(registeredWatchers()).toBe(baseline);
  });
});

describe("watchLifetimeMs", () => {
  it("without timeoutSeconds, or with 0, picks between --min-request-timeout and twice it", () => {
    expect(watchLifetimeMs(undefined, 1800, () => 0)).toBe(1_800_000);
    expect(watchLifetimeMs(0n, 1800, () => 0.5)).toBe(2_700_000);
    expect(watchLifetimeMs(undefined, 60, () => 0.999)).toBeCloseTo(119_940);
  });

  it("reads timeoutSeconds as a Go time.Duration, whose nanoseconds wrap past int64", () => {
    expect(watchLifetimeMs(5n, 1800)).toBe(5000);
    expect(watchLifetimeMs(-1n, 1800)).toBe(-1000);
    expect(watchLifetimeMs(9223372036854775807n, 1800)).toBe(-1000);
    expect(watchLifetimeMs(9999999999n, 1800)).toBe(-8446744074709);
    expect(watchLifetimeMs(99999999999n, 1800)).toBe(7766279630452);
  });
});

describe("a watch's timeoutSeconds", () => {
  let server: RunningServer;
  const agent = new Agent({ keepAlive: true, rejectUnauthorized: false });

  beforeAll(async () => {
    server = await startServer({ adminToken: token, controllers: false, minRequestTimeoutSeconds: 1 });
  });
  afterAll(async () => {
    agent.destroy();
    await server?.close();
  });

  const watch = (query: string) => call(server, agent, "GET", `/api/v1/namespaces/default/configmaps?watch=1&${query}`);

  it("without it, lasts between --min-request-timeout and twice it", async () => {
    const started = performance.now();
    const answer = await watch("");
    const lasted = performance.now() - started;
    expect(answer).toMatchObject({ status: 200, complete: true });
    expect(lasted).toBeGreaterThanOrEqual(1000);
    // Twice the minimum, and room for a busy machine.
    expect(lasted).toBeLessThan(2000 + 3000);
  });

  it("ends a watch at once when negative, or when its nanoseconds wrap past int64 to a negative value", async () => {
    for (const seconds of ["-1", "-100", "9223372036854775807", "9999999999"]) {
      expect(await watch(`timeoutSeconds=${seconds}`)).toEqual({ status: 200, body: "", complete: true });
    }
  });

  it("reads 0 as unset and takes a sign or leading zeros", async () => {
    expect(await watch("timeoutSeconds=0&fieldSelector=metadata.name%3Dnone")).toMatchObject({
      status: 200,
      complete: true,
    });
    expect(await watch("timeoutSeconds=%2B1")).toMatchObject({ status: 200, complete: true });
    expect(await watch("timeoutSeconds=01")).toMatchObject({ status: 200, complete: true });
  });

  it("answers 400 with strconv's message for a value that is no int64, on a watch and on a list", async () => {
    const cases: [string, string][] = [
      ["abc", 'strconv.ParseInt: parsing "abc": invalid syntax'],
      ["", 'strconv.ParseInt: parsing "": invalid syntax'],
      ["1.5", 'strconv.ParseInt: parsing "1.5": invalid syntax'],
      ["%205", 'strconv.ParseInt: parsing " 5": invalid syntax'],
      ["9223372036854775808", 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
    ];
    for (const [value, message] of cases) {
      for (const path of [`?watch=1&timeoutSeconds=${value}`, `?timeoutSeconds=${value}`]) {
        const answer = await call(server, agent, "GET", `/api/v1/namespaces/default/configmaps${path}`);
        expect(answer.status).toBe(400);
        expect(JSON.parse(answer.body)).toMatchObject({ reason: "BadRequest", code: 400, message });
      }
    }
  });

  it("is read before the options are validated", async () => {
    const answer = await watch("resourceVersionMatch=Exact&timeoutSeconds=abc");
    expect(answer.status).toBe(400);
  });
});

describe("watches when the server shuts down", () => {
  it("end with a clean chunked end", async () => {
    const server = await startServer({ adminToken: token, controllers: false });
    const agent = new Agent({ keepAlive: true, rejectUnauthorized: false });
    try {
      const before = registeredWatchers();
      const answers = Array.from({ length: 3 }, () =>
        call(server, agent, "GET", "/api/v1/namespaces/default/configmaps?watch=1"),
      );
      await eventually(() => expect(registeredWatchers()).toBe(before + 3));
      await server.close();
      for (const answer of await Promise.all(answers)) {
        expect(answer).toMatchObject({ status: 200, complete: true });
      }
    } finally {
      agent.destroy();
      await server.close();
    }
  });
});
