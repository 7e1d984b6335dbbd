// The request and response of one HTTP/2 stream, shaped as the pipeline reads and writes HTTP/1.1 ones, so
// every stage and handler serves both protocols alike. Node's compatibility classes differ from
// IncomingMessage and ServerResponse where the pipeline looks: pseudo-headers among the headers, no
// headersDistinct, no destroyed or writableNeedDrain on the response, and connection-specific response
// headers refused with an exception. What Go's HTTP/2 server (and so kube-apiserver) does with those is
// mirrored here.
import type { IncomingHttpHeaders } from "node:http";
import { Http2ServerRequest, Http2ServerResponse } from "node:http2";

/**
 * Response headers RFC 9113 (8.2.2) forbids. Go's server drops Connection and Transfer-Encoding; Node would
 * fail the response on any of these, so all are dropped.
 */
const connectionSpecific = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"]);

function asksToClose(value: unknown): boolean {
  const values = Array.isArray(value) ? value : [value];
  return values.some((v) =>
    String(v)
      .split(",")
      .some((token) => token.trim().toLowerCase() === "close"),
  );
}

export class Http2Request extends Http2ServerRequest {}

/**
 * The headers as an HTTP/1.1 request carries them: no pseudo-headers, and `host` from `:authority` when the
 * client sent no Host (Go reads the host from either). Made once, since stages delete from the object.
 */
function plainHeaders(this: Http2ServerRequest & { _plainHeaders?: IncomingHttpHeaders }): IncomingHttpHeaders {
  if (this._plainHeaders !== undefined) return this._plainHeaders;
  const all = Object.getOwnPropertyDescriptor(Http2ServerRequest.prototype, "headers")?.get?.call(this) as
    | IncomingHttpHeaders
    | undefined;
  const headers: IncomingHttpHeaders = {};
  for (const name in all) if (name[0] !== ":") headers[name] = all[name];
  const authority = all?.[":authority"];
  if (headers.host === undefined && typeof authority === "string") headers.host = authority;
  this._plainHeaders = headers;
  return headers;
}

/** Each occurrence of a header apart, as IncomingMessage's headersDistinct (impersonation reads repeated ones). */
function headersDistinct(
  this: Http2ServerRequest & { _headersDistinct?: NodeJS.Dict<string[]> },
): NodeJS.Dict<string[]> {
  if (this._headersDistinct !== undefined) return this._headersDistinct;
  const distinct: NodeJS.Dict<string[]> = {};
  const raw = this.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (name[0] === ":") continue;
    const values = distinct[name];
    if (values === undefined) distinct[name] = [raw[i + 1] as string];
    else values.push(raw[i + 1] as string);
  }
  const authority = this.authority;
  if (distinct.host === undefined && typeof authority === "string") distinct.host = [authority];
  this._headersDistinct = distinct;
  return distinct;
}

Object.defineProperties(Http2Request.prototype, {
  headers: { get: plainHeaders, configurable: true },
  headersDistinct: { get: headersDistinct, configurable: true },
});

export class Http2Response extends Http2ServerResponse {
  #closeConnection = false;

  override setHeader(name: string, value: number | string | readonly string[]): this {
    if (this.#connectionSpecific(name, value)) return this;
    super.setHeader(name, value);
    return this;
  }

  override appendHeader(name: string, value: string | string[]): this {
    if (this.#connectionSpecific(name, value)) return this;
    super.appendHeader(name, value);
    return this;
  }

  override writeHead(statusCode: number, ...rest: unknown[]): this {
    const last = rest.length - 1;
    const headers = rest[last];
    if (headers !== null && typeof headers === "object" && !Array.isArray(headers)) {
      const kept: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(headers)) {
        if (!this.#connectionSpecific(name, value)) kept[name] = value;
      }
      rest[last] = kept;
    }
    // Go ignores a reason phrase on HTTP/2; Node warns about one.
    if (typeof rest[0] === "string") rest.shift();
    (super.writeHead as (code: number, ...args: unknown[]) => this)(statusCode, ...rest);
    // Go answers `Connection: close` on HTTP/2 by a graceful GOAWAY: the streams open go on, no new one starts.
    if (this.#closeConnection) this.stream.session?.close();
    return this;
  }

  #connectionSpecific(name: string, value: unknown): boolean {
    const lower = name.toLowerCase();
    if (!connectionSpecific.has(lower)) return false;
    if (lower === "connection" && asksToClose(value)) this.#closeConnection = true;
    return true;
  }
}

Object.defineProperties(Http2Response.prototype, {
  destroyed: {
    get(this: Http2ServerResponse) {
      return this.stream.destroyed;
    },
    configurable: true,
  },
  writableNeedDrain: {
    get(this: Http2ServerResponse) {
      return this.stream.writableNeedDrain;
    },
    configurable: true,
  },
});
