// Sends hostile requests to one server, named by a kubeconfig, and reports how it answered. Only the status
// is wanted: a response is read for at most a few KiB and a few seconds, then its connection dropped, so
// streams (watches) and stalls end on the client's side.
import { Agent, request as httpsRequest } from "node:https";
import { connect, createSecureContext, type SecureContext } from "node:tls";
import { loadKubeconfig } from "../../../sdk/kubeconfig.js";
import type { Credential, HostileRequest, HttpRequest, Outcome, RawRequest } from "./hostile-request.js";

export interface Target {
  name: string;
  host: string;
  port: number;
  ca?: string;
  admin: { token?: string; cert?: string; key?: string };
}

/** The server and admin credential of a kubeconfig's current context (https only). */
export function targetFromKubeconfig(name: string, source: { path: string } | { text: string }): Target {
  const config = loadKubeconfig(source);
  const url = new URL(config.cluster.server);
  if (url.protocol !== "https:") throw new Error(`${name}: only https servers are supported, got ${url.href}`);
  if (url.hostname !== "127.0.0.1" && url.hostname !== "localhost" && url.hostname !== "[::1]") {
    throw new Error(`${name}: hostile requests go to loopback only, not ${url.hostname}`);
  }
  const { user } = config;
  return {
    name,
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: Number(url.port || 443),
    ...(config.cluster.certificateAuthorityData === undefined ? {} : { ca: config.cluster.certificateAuthorityData }),
    admin: {
      ...(user.token === undefined ? {} : { token: user.token }),
      ...(user.clientCertificateData === undefined ? {} : { cert: user.clientCertificateData }),
      ...(user.clientKeyData === undefined ? {} : { key: user.clientKeyData }),
    },
  };
}

const bodyKeptBytes = 2048;
/** How long a response body is read once its status is known; a longer one is a stream, and cut. */
const bodyWindowMs = 250;

export interface SendOptions {
  /** How long to wait for a status line; default 15 s. */
  timeoutMs?: number;
  /** The same for raw requests, which may leave a server waiting for bytes that never come; default timeoutMs. */
  rawTimeoutMs?: number;
}

export class Sender {
  private readonly agents: Record<Credential, Agent>;
  /** Made once: a raw request opens a connection each, and building a TLS context costs more than the request. */
  private readonly contexts: Record<Credential, SecureContext>;

  constructor(
    readonly target: Target,
    concurrency = 32,
  ) {
    const tls = this.tlsOptions();
    this.agents = {
      admin: new Agent({ keepAlive: true, maxSockets: concurrency, ...tls, ...this.certificate("admin") }),
      anonymous: new Agent({ keepAlive: true, maxSockets: concurrency, ...tls }),
    };
    const ca = target.ca === undefined ? {} : { ca: target.ca };
    this.contexts = {
      admin: createSecureContext({ ...ca, ...this.certificate("admin") }),
      anonymous: createSecureContext(ca),
    };
  }

  close(): void {
    this.agents.admin.destroy();
    this.agents.anonymous.destroy();
  }

  send(request: HostileRequest, options: SendOptions = {}): Promise<Outcome> {
    const timeoutMs = options.timeoutMs ?? 15_000;
    return request.kind === "raw"
      ? this.sendRaw(request, options.rawTimeoutMs ?? timeoutMs)
      : this.sendHttp(request, timeoutMs);
  }

  private tlsOptions() {
    // The CA is checked, the name is not: certificates name the server variously (localhost, 127.0.0.1).
    return {
      ...(this.target.ca === undefined ? {} : { ca: this.target.ca }),
      checkServerIdentity: () => undefined,
    };
  }

  private certificate(as: Credential) {
    const { cert, key } = this.target.admin;
    return as === "admin" && cert !== undefined && key !== undefined ? { cert, key } : {};
  }

  private authHeaders(as: Credential): Record<string, string> {
    const { token, cert } = this.target.admin;
    return as === "admin" && cert === undefined && token !== undefined ? { Authorization: `Bearer ${token}` } : {};
  }

  private sendHttp(request: HttpRequest, timeoutMs: number): Promise<Outcome> {
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: Outcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const timer = setTimeout(() => {
        finish({ kind: "timeout" });
        req.destroy();
      }, timeoutMs);
      const headers = { ...this.authHeaders(request.as), ...request.headers };
      if (request.body !== undefined && !hasHeader(headers, "content-length")) {
        headers["Content-Length"] = String(request.body.length);
      }
      let req: ReturnType<typeof httpsRequest>;
      try {
        req = httpsRequest({
          host: this.target.host,
          port: this.target.port,
          method: request.method,
          path: request.path,
          headers,
          agent: this.agents[request.as],
        });
      } catch (error) {
        // node refuses to send some requests (an invalid header value, a path with spaces): not the server's doing.
        clearTimeout(timer);
        resolve({ kind: "error", message: `client: ${(error as Error).message}` });
        return;
      }
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const answer = (): Outcome => ({
          kind: "status",
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString("utf8"),
        });
        // A body that ends in time is read whole, so the connection serves the next request; a stream is cut.
        const window = setTimeout(() => {
          finish(answer());
          res.destroy();
        }, bodyWindowMs);
        res.on("data", (chunk: Buffer) => {
          if (kept >= bodyKeptBytes) return;
          chunks.push(chunk);
          kept += chunk.length;
        });
        const end = () => {
          clearTimeout(window);
          finish(answer());
        };
        res.on("end", end);
        res.on("error", end);
      });
      // A CONNECT's answer comes as this event, with the connection handed over; it is not wanted.
      req.on("connect", (res, socket) => {
        finish({ kind: "status", status: res.statusCode ?? 0, body: "" });
        socket.destroy();
      });
      req.on("error", (error: NodeJS.ErrnoException) => {
        finish(
          error.code === "ECONNRESET" ? { kind: "closed" } : { kind: "error", message: error.code ?? error.message },
        );
      });
      req.end(request.body);
    });
  }

  private sendRaw(request: RawRequest, timeoutMs: number): Promise<Outcome> {
    const { token, cert } = this.target.admin;
    const auth =
      request.as === "admin" && cert === undefined && token !== undefined ? [`Authorization: Bearer ${token}`] : [];
    const bytes = request.build({ host: `${this.target.host}:${this.target.port}`, auth });
    return new Promise((resolve) => {
      const socket = connect({
        host: this.target.host,
        port: this.target.port,
        secureContext: this.contexts[request.as],
        checkServerIdentity: () => undefined,
      });
      let received = Buffer.alloc(0);
      let settled = false;
      let bodyTimer: NodeJS.Timeout | undefined;
      const finish = (outcome: Outcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(bodyTimer);
        socket.destroy();
        resolve(outcome);
      };
      const answered = (): Outcome | undefined => {
        const text = received.toString("latin1");
        const match = /^HTTP\/\d\.\d (\d{3})/.exec(text);
        if (match === null) return undefined;
        const headEnd = text.indexOf("\r\n\r\n");
        return { kind: "status", status: Number(match[1]), body: headEnd < 0 ? "" : text.slice(headEnd + 4) };
      };
      const timer = setTimeout(() => finish(answered() ?? { kind: "timeout" }), timeoutMs);
      socket.on("secureConnect", () => {
        socket.write(bytes, () => {
          if (request.afterWrite === "close") finish(answered() ?? { kind: "closed" });
        });
      });
      socket.on("data", (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        const text = received.toString("latin1");
        const headEnd = text.indexOf("\r\n\r\n");
        if (headEnd < 0) return;
        const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, headEnd));
        const complete = length !== null && received.length - headEnd - 4 >= Number(length[1]);
        if (complete || received.length >= bodyKeptBytes) finish(answered() ?? { kind: "closed" });
        else bodyTimer ??= setTimeout(() => finish(answered() ?? { kind: "closed" }), 200);
      });
      socket.on("error", (error: NodeJS.ErrnoException) => {
        finish(
          answered() ??
            (error.code === "ECONNRESET"
              ? { kind: "closed" }
              : { kind: "error", message: error.code ?? error.message }),
        );
      });
      socket.on("close", () => finish(answered() ?? { kind: "closed" }));
    });
  }
}

function hasHeader(headers: Record<string, unknown>, name: string): boolean {
  return Object.keys(headers).some((h) => h.toLowerCase() === name);
}

/** Sends every request, `concurrency` at a time, and pairs each with its outcome. */
export async function sendAll(
  sender: Sender,
  requests: readonly HostileRequest[],
  concurrency: number,
  options: SendOptions = {},
): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array(requests.length);
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const i = next++;
      outcomes[i] = await sender.send(requests[i] as HostileRequest, options);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, requests.length) }, worker));
  return outcomes;
}
