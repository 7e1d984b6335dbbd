import { type ClientHttp2Session, connect, type IncomingHttpHeaders } from "node:http2";
import { request as httpsRequest } from "node:https";
import type { TLSSocket } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseServeFlags } from "../../../runtime/cli/serve-flags.js";
import { type RunningServer, startServer } from "../../../runtime/index.js";

interface Answer {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A session once the server's SETTINGS have arrived. */
function open(url: string): Promise<ClientHttp2Session> {
  const session = connect(url, { rejectUnauthorized: false });
  return new Promise((resolve, reject) => {
    session.once("remoteSettings", () => resolve(session));
    session.once("error", reject);
  });
}

function send(session: ClientHttp2Session, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request(headers, { endStream: body === undefined });
    let text = "";
    let head: IncomingHttpHeaders = {};
    stream.setEncoding("utf8");
    stream.on("response", (h) => {
      head = h;
    });
    stream.on("data", (chunk: string) => {
      text += chunk;
    });
    stream.on("end", () => resolve({ headers: head, body: text }));
    stream.on("error", reject);
    if (body !== undefined) stream.end(body);
  });
}

function goaway(session: ClientHttp2Session): Promise<number> {
  return new Promise((resolve) => session.once("goaway", (code: number) => resolve(code)));
}

describe("HTTP/2 serving", () => {
  let server: RunningServer;
  let auth: Record<string, string>;

  beforeAll(async () => {
    server = await startServer({ controllers: false });
    auth = { authorization: `Bearer ${server.adminToken}` };
  }, 60_000);
  afterAll(() => server.close());

  it("negotiates h2 and advertises kube-apiserver's SETTINGS", async () => {
    const session = await open(server.url);
    try {
      expect(session.alpnProtocol).toBe("h2");
      expect(session.remoteSettings).toMatchObject({
        maxConcurrentStreams: 100,
        initialWindowSize: 262144,
        maxFrameSize: 262144,
        maxHeaderListSize: 1048896,
      });
      // The connection window kube's server opens: 256 KiB for each of its 100 streams.
      await send(session, { ":path": "/version", ...auth });
      expect(session.state.remoteWindowSize).toBe(26214400);
    } finally {
      session.close();
    }
  });

  it("serves a watch, a create and gets multiplexed on one session", async () => {
    const session = await open(server.url);
    try {
      const path = "/api/v1/namespaces/default/configmaps";
      const watch = session.request({ ":path": `${path}?watch=1`, ...auth });
      watch.setEncoding("utf8");
      const head = new Promise<IncomingHttpHeaders>((resolve) => watch.once("response", resolve));
      let events = "";
      const added = new Promise<void>((resolve) =>
        watch.on("data", (chunk: string) => {
          events += chunk;
          if (events.includes('"c-h2"')) resolve();
        }),
      );
      expect((await head)[":status"]).toBe(200);
      // No length: an HTTP/2 body may come in DATA frames alone.
      const created = await send(
        session,
        { ":method": "POST", ":path": path, "content-type": "application/json", ...auth },
        JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c-h2" }, data: { a: "b" } }),
      );
      expect(created.headers[":status"]).toBe(201);
      const gets = await Promise.all(
        Array.from({ length: 20 }, () => send(session, { ":path": `${path}/c-h2`, ...auth })),
      );
      for (const got of gets) {
        expect(got.headers[":status"]).toBe(200);
        expect(JSON.parse(got.body).data).toEqual({ a: "b" });
      }
      await added;
      expect(JSON.parse(events.split("\n")[0] as string).type).toBe("ADDED");
      watch.close();
    } finally {
      session.close();
    }
  });

  it("keeps repeated request headers apart, as over HTTP/1.1", async () => {
    const session = await open(server.url);
    try {
      const review = await send(
        session,
        {
          ":method": "POST",
          ":path": "/apis/authentication.k8s.io/v1/selfsubjectreviews",
          "content-type": "application/json",
          "impersonate-user": "jane",
          ...auth,
        },
        JSON.stringify({ apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" }),
      );
      expect(review.headers[":status"]).toBe(201);
      expect(JSON.parse(review.body).status.userInfo.username).toBe("jane");
      // An array value goes out as one header field per value.
      const stream = session.request({
        ":method": "POST",
        ":path": "/apis/authentication.k8s.io/v1/selfsubjectreviews",
        "content-type": "application/json",
        "impersonate-user": "jane",
        "impersonate-group": ["a", "b"],
        ...auth,
      });
      stream.end(JSON.stringify({ apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" }));
      stream.setEncoding("utf8");
      let text = "";
      stream.on("data", (chunk: string) => {
        text += chunk;
      });
      await new Promise((resolve) => stream.on("end", resolve));
      expect(JSON.parse(text).status.userInfo.groups).toEqual(["a", "b", "system:authenticated"]);
    } finally {
      session.close();
    }
  });

  it("sends a GOAWAY after answering an anonymous client (UnauthenticatedHTTP2DOSMitigation)", async () => {
    const session = await open(server.url);
    const away = goaway(session);
    const answer = await send(session, { ":path": "/api/v1/namespaces" });
    expect(answer.headers[":status"]).toBe(403);
    expect(answer.headers.connection).toBeUndefined();
    expect(await away).toBe(0);
    session.destroy();
  });

  it("sends a GOAWAY after a refused credential", async () => {
    const session = await open(server.url);
    const away = goaway(session);
    const answer = await send(session, { ":path": "/api/v1/namespaces", authorization: "Bearer nope" });
    expect(answer.headers[":status"]).toBe(401);
    expect(await away).toBe(0);
    session.destroy();
  });

  it("still serves HTTP/1.1 to a client that offers only http/1.1", async () => {
    const answer = await new Promise<{ code: number | undefined; alpn: string | false | null; version: string }>(
      (resolve, reject) => {
        const req = httpsRequest(
          `${server.url}/version`,
          { rejectUnauthorized: false, headers: auth, ...({ ALPNProtocols: ["http/1.1"] } as object) },
          (res) => {
            res.resume();
            resolve({
              code: res.statusCode,
              alpn: (res.socket as TLSSocket).alpnProtocol,
              version: res.httpVersion,
            });
          },
        );
        req.on("error", reject);
        req.end();
      },
    );
    expect(answer).toEqual({ code: 200, alpn: "http/1.1", version: "1.1" });
  });
});

describe("HTTP/2 flags", () => {
  it("--disable-http2-serving offers http/1.1 alone", async () => {
    const server = await startServer({ controllers: false, disableHttp2Serving: true });
    try {
      const session = connect(server.url, { rejectUnauthorized: false });
      const failed = await new Promise<Error>((resolve) => session.once("error", resolve));
      expect(failed.message).toMatch(/protocol|ALPN|closed|socket/i);
      session.destroy();
    } finally {
      await server.close();
    }
  });

  it("--http2-max-streams-per-connection sets the streams a client may open", async () => {
    const server = await startServer({ controllers: false, http2MaxStreamsPerConnection: 7 });
    try {
      const session = await open(server.url);
      await send(session, { ":path": "/version", authorization: `Bearer ${server.adminToken}` });
      expect(session.remoteSettings.maxConcurrentStreams).toBe(7);
      expect(session.state.remoteWindowSize).toBe(7 * 262144);
      session.close();
    } finally {
      await server.close();
    }
  });

  it("parses the flags as kube-apiserver does", () => {
    const parsed = parseServeFlags([
      "--disable-http2-serving",
      "--http2-max-streams-per-connection=50",
      "--goaway-chance=0.001",
    ]);
    expect(parsed.http2).toEqual({
      disableHttp2Serving: true,
      http2MaxStreamsPerConnection: 50,
      goawayChance: 0.001,
    });
    expect(() => parseServeFlags(["--goaway-chance=0.5"])).toThrow(
      "--goaway-chance can not be less than 0 or greater than 0.02",
    );
    expect(() => parseServeFlags(["--http2-max-streams-per-connection=x"])).toThrow(/strconv.ParseInt/);
  });

  it("--goaway-chance sends GOAWAY after a share of HTTP/2 requests", async () => {
    const server = await startServer({ controllers: false, goawayChance: 0.02 });
    try {
      let goaways = 0;
      const answered = new Set<ClientHttp2Session>();
      const fresh = async () => {
        const session = await open(server.url);
        session.once("goaway", () => {
          goaways++;
          answered.add(session);
        });
        return session;
      };
      let session = await fresh();
      for (let i = 0; i < 400; i++) {
        if (answered.has(session) || session.closed) {
          session.destroy();
          session = await fresh();
        }
        // A request sent before the GOAWAY arrived may be refused; it counts as sent all the same.
        await send(session, { ":path": "/version", authorization: `Bearer ${server.adminToken}` }).catch(() => {});
      }
      session.destroy();
      // 400 requests at 2%: 8 expected; none at all has a chance of 0.03%.
      expect(goaways).toBeGreaterThan(0);
      expect(goaways).toBeLessThan(40);
    } finally {
      await server.close();
    }
  });
});
