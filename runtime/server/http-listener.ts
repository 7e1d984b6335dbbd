// The server's HTTP(S) listener: Node's server set up with the bounds of kube-apiserver's Go server, every
// request it reads handed to serveRequest, and its part of a graceful shutdown (stop accepting, let the
// connections finish their requests). HTTPS offers HTTP/2 and HTTP/1.1 by ALPN, as kube-apiserver does
// (http/1.1 alone with --disable-http2-serving); plain HTTP is HTTP/1.1 only (kube serves no h2c).
// startServer({ listen: false }) has none.
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  ServerResponse,
} from "node:http";
import { createSecureServer, type Http2SecureServer, type ServerHttp2Session } from "node:http2";
import { createServer as createHttpsServer } from "node:https";
import { type AddressInfo, Server as NetServer, type Socket } from "node:net";
import type { ClientCertificateTlsOptions } from "../authn/union-authenticator.js";
import type { ServingCertificates } from "../http/certificates.js";
import { ConnectionTracker } from "./connection-tracker.js";
import type { ServerState } from "./context.js";
import { Http2Request, Http2Response } from "./http2-exchange.js";
import { type Http2Serving, http2ServerSettings } from "./http2-settings.js";
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
  /** HTTP/2 over HTTPS: `--disable-http2-serving`, `--http2-max-streams-per-connection`. */
  http2?: Http2Serving;
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
function serveSpecialRequests(server: Server | KapiHttp2Server, state: ServerState): void {
  server.on("connect", (req: IncomingMessage, socket: Socket | Http2Response) => {
    // An HTTP/2 CONNECT is a stream with a response of its own.
    if (socket instanceof Http2Response) {
      serveRequest(state, req, socket as unknown as ServerResponse);
      return;
    }
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

function listen(server: Server | KapiHttp2Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

type KapiHttp2Server = Http2SecureServer<
  typeof IncomingMessage,
  typeof ServerResponse,
  typeof Http2Request,
  typeof Http2Response
>;

/**
 * HTTPS with ALPN `h2` then `http/1.1`. Node's HTTP/2 server hands HTTP/1.1 connections to its HTTP/1.1 code
 * but reads none of that code's options: they are set on the server as node:https would set them.
 */
function createHttp2Server(
  tls: object,
  http1: ServerOptions,
  serving: Http2Serving,
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): KapiHttp2Server {
  const { settings, connectionWindowSize, maxSessionMemoryMb } = http2ServerSettings(serving);
  const server = createSecureServer(
    {
      ...tls,
      allowHTTP1: true,
      settings,
      maxSessionMemory: maxSessionMemoryMb,
      Http2ServerRequest: Http2Request,
      Http2ServerResponse: Http2Response,
    },
    handle as unknown as (req: Http2Request, res: Http2Response) => void,
  );
  Object.assign(server, {
    maxHeaderSize: http1.maxHeaderSize,
    keepAliveTimeout: http1.keepAliveTimeout,
    headersTimeout: http1.headersTimeout,
    requestTimeout: http1.requestTimeout,
    connectionsCheckingInterval: http1.connectionsCheckingInterval,
    requireHostHeader: true,
  });
  server.on("session", (session: ServerHttp2Session) => {
    session.setLocalWindowSize(connectionWindowSize);
  });
  return server;
}

export async function listenForClients(state: ServerState, options: ListenOptions): Promise<HttpListener> {
  const { certificates } = options;
  const goawayChance = options.http2?.disabled === true ? 0 : (options.http2?.goawayChance ?? 0);
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    // kube's probabilistic GOAWAY: the client's next requests go to a new connection, maybe another server.
    if (goawayChance > 0 && req.httpVersionMajor === 2 && Math.random() < goawayChance) {
      res.setHeader("Connection", "close");
    }
    serveRequest(state, req, res);
  };
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
  const tls = certificates && {
    cert: certificates.cert,
    key: certificates.key,
    handshakeTimeout: timeouts.headersMs ?? headersTimeoutMs,
    ...options.tlsOptions,
  };
  const server: Server | KapiHttp2Server =
    tls === undefined
      ? createHttpServer(serverOptions, handle)
      : options.http2?.disabled === true
        ? createHttpsServer({ ...serverOptions, ...tls }, handle)
        : createHttp2Server(tls, serverOptions, options.http2 ?? {}, handle);
  serveSpecialRequests(server, state);
  const connections = new ConnectionTracker(
    server,
    certificates !== undefined,
    timeouts.headersMs ?? headersTimeoutMs,
    timeouts.idleMs ?? idleTimeoutMs,
  );
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
