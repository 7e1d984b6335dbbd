// The server's HTTP(S) listener: Node's server set up with the bounds of kube-apiserver's Go server, every
// request it reads handed to serveRequest, and its part of a graceful shutdown (stop accepting, let the
// connections finish their requests). startServer({ listen: false }) has none.
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  ServerResponse,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { type AddressInfo, Server as NetServer, type Socket } from "node:net";
import type { ClientCertificateTlsOptions } from "../authn/union-authenticator.js";
import type { ServingCertificates } from "../http/certificates.js";
import { ConnectionTracker } from "./connection-tracker.js";
import type { ServerState } from "./context.js";
import { serveRequest } from "./serve-request.js";

export interface ListenOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** HTTPS with these; plain HTTP without. */
  certificates?: ServingCertificates;
  /** How client certificates are asked for and verified. */
  tlsOptions: ClientCertificateTlsOptions;
  connectionTimeouts?: { idleMs?: number; headersMs?: number };
}

export interface HttpListener {
  /** `https://host:port` (or `http://`), a host a client can dial. */
  url: string;
  /** `host:port`, as /api reports it. */
  address: string;
  /** Stops accepting connections; resolves once the listener is closed. */
  stopAccepting(): Promise<void>;
  /** Closes idle connections at once and the others once their requests are answered, within `timeoutMs`. */
  closeConnections(timeoutMs: number): Promise<void>;
  /** Ends Node's connection checks, once no connection is left. */
  close(): void;
}

/** kube-apiserver's Go HTTP server: IdleTimeout 90 s, ReadHeaderTimeout (and so the TLS handshake) 32 s. */
const idleTimeoutMs = 90_000;
const headersTimeoutMs = 32_000;
/** How long a connection accepted just before shutdown may take to send its request (Go's server gives 5 s). */
const newConnectionGraceMs = 5_000;
const netServerClose = NetServer.prototype.close;

/** Go's MaxHeaderBytes in kube-apiserver's server: 1 MiB of request line and headers. */
const maxHeaderBytes = 1 << 20;

/**
 * Requests Node does not hand to the request handler by default: CONNECT (answered like any other method,
 * 404 or 405 as kube does, then the connection closes) and `Expect: 100-continue` (the client is told to go on
 * only once its request is authorized and the body is wanted).
 */
function serveSpecialRequests(server: Server, state: ServerState): void {
  server.on("connect", (req: IncomingMessage, socket: Socket) => {
    socket.on("error", (error) => state.debug(`CONNECT connection failed: ${error.message}`));
    // A CONNECT pipelined behind a request whose response still holds the connection cannot be answered on it.
    if ((socket as Socket & { _httpMessage?: unknown })._httpMessage) {
      state.debug("CONNECT pipelined behind another request: connection closed");
      socket.destroy();
      return;
    }
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.on("finish", () => {
      res.detachSocket(socket);
      socket.destroySoon();
    });
    serveRequest(state, req, res);
  });
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => serveRequest(state, req, res));
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

export async function listenForClients(state: ServerState, options: ListenOptions): Promise<HttpListener> {
  const { certificates } = options;
  const handle = (req: IncomingMessage, res: ServerResponse) => serveRequest(state, req, res);
  const timeouts = options.connectionTimeouts ?? {};
  const serverOptions: ServerOptions = {
    maxHeaderSize: maxHeaderBytes,
    keepAliveTimeout: timeouts.idleMs ?? idleTimeoutMs,
    headersTimeout: timeouts.headersMs ?? headersTimeoutMs,
    // The request deadline (the timeout stage) bounds a slow body, as in kube; Node's own bound is not needed.
    requestTimeout: 0,
    // How often Node checks headersTimeout: often enough that short test bounds hold.
    connectionsCheckingInterval: Math.min(30_000, Math.max(100, (timeouts.headersMs ?? headersTimeoutMs) / 4)),
  };
  const server: Server = certificates
    ? createHttpsServer(
        {
          ...serverOptions,
          cert: certificates.cert,
          key: certificates.key,
          handshakeTimeout: timeouts.headersMs ?? headersTimeoutMs,
          ...options.tlsOptions,
        },
        handle,
      )
    : createHttpServer(serverOptions, handle);
  serveSpecialRequests(server, state);
  const connections = new ConnectionTracker(server, certificates !== undefined, timeouts.headersMs ?? headersTimeoutMs);
  const address = await listen(server, options.port, options.host);
  // A wildcard address is not one a client can dial; the certificate names 127.0.0.1.
  const reachable = address.address === "0.0.0.0" || address.address === "::" ? "127.0.0.1" : address.address;
  const hostPart = reachable.includes(":") ? `[${reachable}]` : reachable;
  const hostAndPort = `${hostPart}:${address.port}`;
  return {
    url: `${certificates ? "https" : "http"}://${hostAndPort}`,
    address: hostAndPort,
    // Without Node's server.close(), which would also reset connections accepted a moment ago.
    stopAccepting: () => new Promise<void>((resolve) => netServerClose.call(server, () => resolve())),
    closeConnections: (timeoutMs) => connections.shutDown(newConnectionGraceMs, timeoutMs),
    close: () => server.close(() => {}),
  };
}
