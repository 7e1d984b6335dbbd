// What each open connection is doing, for the two bounds Node's HTTP server does not give the way Go's server
// (and so kube-apiserver) does: a connection on which no request ever starts is closed after the header
// timeout, and a graceful shutdown closes idle connections at once but lets connections that were accepted
// just before the listener closed send their request (Node's server.close() would reset them). An HTTP/2
// connection is followed by its session instead: it is idle while no stream is open, closes after the idle
// timeout as Go's HTTP/2 server does, and a shutdown sends it a GOAWAY (the open streams finish, no new one
// starts).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerHttp2Session } from "node:http2";
import type { Server as NetServer, Socket } from "node:net";
import type { TLSSocket } from "node:tls";

type ConnectionState = "new" | "active" | "idle";

export class ConnectionTracker {
  private readonly states = new Map<Socket, ConnectionState>();
  private readonly silentTimers = new Map<Socket, NodeJS.Timeout>();
  private readonly sessions = new Set<ServerHttp2Session>();
  /** Every accepted TCP connection, including those still in their TLS handshake. */
  private readonly accepted = new Set<Socket>();
  private shuttingDown = false;
  private newGraceMs = 0;
  private allClosed: (() => void) | undefined;

  constructor(
    server: NetServer,
    tls: boolean,
    private readonly headersTimeoutMs: number,
    private readonly idleTimeoutMs: number,
  ) {
    server.on("connection", (socket: Socket) => {
      this.accepted.add(socket);
      socket.once("close", () => {
        this.accepted.delete(socket);
        if (this.accepted.size === 0) this.allClosed?.();
      });
    });
    server.on(tls ? "secureConnection" : "connection", (socket: Socket) => this.opened(socket));
    const started = (req: IncomingMessage, res: ServerResponse) => this.started(req.socket, res);
    server.prependListener("request", started);
    server.prependListener("checkContinue", started);
    server.prependListener("connect", (req: IncomingMessage) => this.started(req.socket, undefined));
    server.on("session", (session: ServerHttp2Session) => this.sessionOpened(session));
  }

  get size(): number {
    return this.accepted.size;
  }

  private opened(socket: Socket): void {
    // An HTTP/2 connection is followed through its session.
    if ((socket as TLSSocket).alpnProtocol === "h2") return;
    this.states.set(socket, "new");
    this.closeIfSilent(socket, this.shuttingDown ? this.newGraceMs : this.headersTimeoutMs);
    socket.once("close", () => {
      clearTimeout(this.silentTimers.get(socket));
      this.silentTimers.delete(socket);
      this.states.delete(socket);
    });
  }

  private sessionOpened(session: ServerHttp2Session): void {
    this.sessions.add(session);
    let open = 0;
    let idle: NodeJS.Timeout | undefined;
    const idleFor = (ms: number) => {
      idle = setTimeout(() => session.close(), ms);
      idle.unref();
    };
    // A session accepted during shutdown gets the grace a new HTTP/1.1 connection gets for its first request.
    idleFor(this.shuttingDown ? this.newGraceMs : this.idleTimeoutMs);
    session.on("stream", (stream) => {
      open++;
      clearTimeout(idle);
      if (this.shuttingDown) session.close();
      stream.once("close", () => {
        open--;
        if (open === 0 && !session.closed) idleFor(this.idleTimeoutMs);
      });
    });
    session.once("close", () => {
      clearTimeout(idle);
      this.sessions.delete(session);
    });
  }

  private closeIfSilent(socket: Socket, ms: number): void {
    clearTimeout(this.silentTimers.get(socket));
    const timer = setTimeout(() => {
      if (this.states.get(socket) === "new") socket.destroy();
    }, ms);
    timer.unref();
    this.silentTimers.set(socket, timer);
  }

  private started(socket: Socket, res: ServerResponse | undefined): void {
    if (!this.states.has(socket)) return;
    this.states.set(socket, "active");
    clearTimeout(this.silentTimers.get(socket));
    // A connection closes after its response once the server is shutting down.
    if (this.shuttingDown && res !== undefined) res.shouldKeepAlive = false;
    res?.once("finish", () => {
      if (!this.states.has(socket)) return;
      this.states.set(socket, "idle");
      if (this.shuttingDown) socket.destroySoon();
    });
  }

  /**
   * From now on responses close their connection; idle connections close now, and connections with no request
   * yet get `newGraceMs` to send one. Resolves when every connection is closed or `deadlineMs` has passed,
   * when the rest are destroyed.
   */
  async shutDown(newGraceMs: number, deadlineMs: number): Promise<void> {
    this.shuttingDown = true;
    this.newGraceMs = newGraceMs;
    for (const session of this.sessions) session.close();
    for (const [socket, state] of this.states) {
      if (state === "idle") socket.destroySoon();
      else if (state === "new") this.closeIfSilent(socket, newGraceMs);
    }
    if (this.accepted.size > 0) {
      let deadline: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.allClosed = resolve;
        deadline = setTimeout(resolve, deadlineMs);
      });
      clearTimeout(deadline);
    }
    for (const socket of this.accepted) socket.destroy();
  }
}
