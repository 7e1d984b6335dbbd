// Who is asking: the server's authenticator decides (client certificate, bearer token, proxy headers or
// anonymous); bad or missing credentials are a 401 whose body says no more than "Unauthorized", as kube's.
import type { X509Certificate } from "node:crypto";
import { X509Certificate as Certificate } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import { AuthenticationError, type AuthenticationRequest } from "../../access/authenticator.js";
import type { UserInfo } from "../../access/user-info.js";
import { unauthorized } from "../../errors/status-error.js";
import { accessMetrics } from "../../metrics/access-metrics.js";
import type { RequestContext, Stage } from "../context.js";

const chains = new WeakMap<object, readonly X509Certificate[]>();

/** The certificate chain the TLS peer sent, read once per connection; none without one (in-process requests). */
function peerCertificates(req: IncomingMessage): readonly X509Certificate[] {
  const socket = req.socket as Partial<TLSSocket> | undefined;
  if (typeof socket?.getPeerCertificate !== "function") return [];
  // An HTTP/2 request's socket is a new stand-in per stream; its session is the connection.
  const connection = (req as { stream?: { session?: object } }).stream?.session ?? req.socket;
  const known = chains.get(connection);
  if (known) return known;
  const chain: X509Certificate[] = [];
  let cert = socket.getPeerCertificate(true);
  const seen = new Set<string>();
  while (cert?.raw !== undefined && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    chain.push(new Certificate(cert.raw));
    cert = cert.issuerCertificate;
  }
  chains.set(connection, chain);
  return chain;
}

export function authenticationRequest(req: IncomingMessage, path: string): AuthenticationRequest {
  return {
    headers: req.headers,
    path,
    headersDistinct: req.headersDistinct,
    peerCertificates: () => peerCertificates(req),
  };
}

/**
 * kube's UnauthenticatedHTTP2DOSMitigation: an HTTP/2 connection serves an anonymous or refused client this
 * one request, then a GOAWAY (the `Connection: close` the HTTP/2 response turns into one).
 */
function oneRequestPerHttp2Connection(ctx: RequestContext): void {
  if (ctx.req.httpVersionMajor === 2 && ctx.server.featureGates.enabled("UnauthenticatedHTTP2DOSMitigation")) {
    ctx.res.setHeader("Connection", "close");
  }
}

function isAnonymous(user: UserInfo): boolean {
  return user.name === "system:anonymous" || user.groups.includes("system:unauthenticated");
}

export const authentication: Stage = {
  name: "authentication",
  async run(ctx, next) {
    let result: Awaited<ReturnType<typeof ctx.server.access.authenticator.authenticate>>;
    const recorder = accessMetrics(ctx.server.metrics);
    const started = performance.now();
    const elapsed = () => (performance.now() - started) / 1000;
    try {
      result = await ctx.server.access.authenticator.authenticate(authenticationRequest(ctx.req, ctx.path));
    } catch (error) {
      recorder.authenticated("error", elapsed());
      if (!(error instanceof AuthenticationError)) throw error;
      oneRequestPerHttp2Connection(ctx);
      throw unauthorized();
    }
    if (result === undefined) {
      recorder.authenticated("failure", elapsed());
      oneRequestPerHttp2Connection(ctx);
      throw unauthorized();
    }
    recorder.authenticated("success", elapsed(), result.user.name);
    if (isAnonymous(result.user)) oneRequestPerHttp2Connection(ctx);
    ctx.user = result.user;
    await next();
  },
};
