// What each open connection is doing, for the two bounds Node's HTTP server does not give the way Go's server
// (and so kube-apiserver) does: a connection on which no request ever starts is closed after the header
// timeout, and a graceful shutdown closes idle connections at once but lets connections that were accepted
// just before the listener closed send their request (Node's server.close() would reset them).
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

type ConnectionState = "new" | "active" | "idle";

export class ConnectionTracker {
  private readonly states = new Map<Socket, ConnectionState>();
  private readonly silentTimers = new Map<Socket, NodeJS.Timeout>();
  /** Every accepted TCP connection, including those still in their TLS handshake. */
  private readonly accepted = new Set<Socket>();
  private shuttingDown = false;
  private newGraceMs = 0;
  private allClosed: (() => void) | undefined;

  constructor(
    server: Server,
    tls: boolean,
    private readonly headersTimeoutMs: number,
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
  }

  get size(): number {
    return this.accepted.size;
  }

  private opened(socket: Socket): void {
    this.states.set(socket, "new");
    this.closeIfSilent(socket, this.shuttingDown ? this.newGraceMs : this.headersTimeoutMs);
    socket.once("close", () => {
      clearTimeout(this.silentTimers.get(socket));
      this.silentTimers.delete(socket);
      this.states.delete(socket);
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
