// Where serveRequest writes when a request comes through startServer's request() rather than a socket: the
// part of ServerResponse the pipeline and the handlers use, over a Writable whose bytes become the body of a
// fetch Response. The Response is handed out once the head is sent (writeHead, or the first write,
// flushHeaders or end), so a watch's events flow through its body as they are written. A streamed body
// (its head sent before its end) waits for its reader as a socket would, so a test that stops reading holds
// the watch back as a slow client does; cancelling the body closes the response as a client hanging up does.
import { type IncomingMessage, STATUS_CODES, validateHeaderName, validateHeaderValue } from "node:http";
import { Writable } from "node:stream";
import { ByteLengthQueuingStrategy, ReadableStream, type ReadableStreamDefaultController } from "node:stream/web";

type HeaderValue = number | string | readonly string[];

/** Node's error when a head is changed after it was sent. */
function headersSentError(): Error {
  return Object.assign(new Error("Cannot set headers after they are sent to the client"), {
    code: "ERR_HTTP_HEADERS_SENT",
  });
}

/** Statuses whose responses carry no body, whatever the handler writes. */
const bodiless = new Set([204, 304]);
/** What a streamed body holds before its writer waits, about what a socket's buffers take. */
const streamBufferBytes = 64 * 1024;

export class InProcessResponse extends Writable {
  statusCode = 200;
  statusMessage = "";
  readonly req: IncomingMessage;
  /** Resolves once the head is sent; rejects if the response closes before any head. */
  readonly response: Promise<Response>;
  readonly #headers = new Map<string, { name: string; value: HeaderValue }>();
  #headSent = false;
  #streaming = false;
  #ended = false;
  #body: ReadableStreamDefaultController<Uint8Array> | undefined;
  #bodyDone = false;
  #waiting: (() => void) | undefined;
  #resolve!: (response: Response) => void;
  #reject!: (error: Error) => void;

  constructor(req: IncomingMessage) {
    super();
    this.req = req;
    this.response = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // Nobody may be waiting for the response when it fails (the request ended on the server's side).
    this.response.catch(() => {});
  }

  get headersSent(): boolean {
    return this.#headSent;
  }

  setHeader(name: string, value: HeaderValue): this {
    if (this.#headSent) throw headersSentError();
    validateHeaderName(name);
    for (const one of Array.isArray(value) ? value : [String(value)]) validateHeaderValue(name, one);
    this.#headers.set(name.toLowerCase(), { name, value });
    return this;
  }

  getHeader(name: string): HeaderValue | undefined {
    return this.#headers.get(name.toLowerCase())?.value;
  }

  getHeaderNames(): string[] {
    return [...this.#headers.keys()];
  }

  hasHeader(name: string): boolean {
    return this.#headers.has(name.toLowerCase());
  }

  removeHeader(name: string): void {
    if (this.#headSent) throw headersSentError();
    this.#headers.delete(name.toLowerCase());
  }

  writeHead(
    statusCode: number,
    message?: string | Record<string, HeaderValue>,
    headers?: Record<string, HeaderValue>,
  ): this {
    if (this.#headSent) throw headersSentError();
    const fields = typeof message === "object" ? message : headers;
    if (typeof message === "string") this.statusMessage = message;
    this.statusCode = statusCode;
    for (const [name, value] of Object.entries(fields ?? {})) this.setHeader(name, value);
    this.#sendHead();
    return this;
  }

  flushHeaders(): void {
    this.#streaming ||= !this.#ended;
    this.#sendHead();
  }

  /** `100 Continue` goes to a client on a socket; here the body is already at hand. */
  writeContinue(): void {}

  override write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    this.#streaming ||= !this.#ended;
    this.#sendHead();
    return super.write(chunk, encoding as BufferEncoding, callback as () => void);
  }

  override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    const framed = this.hasHeader("content-length") || this.hasHeader("transfer-encoding");
    if (!this.#headSent && !framed && typeof chunk !== "function") {
      // Node sends a body that comes whole with its length.
      const whole = chunk === undefined || chunk === null ? "" : (chunk as string | Uint8Array);
      this.setHeader("Content-Length", Buffer.byteLength(whole, encoding as BufferEncoding | undefined));
    }
    this.#ended = true;
    this.#sendHead();
    return super.end(chunk, encoding as BufferEncoding, callback as () => void);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const body = this.#body;
    if (body === undefined || this.#bodyDone) {
      callback();
      return;
    }
    body.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if (!this.#streaming || (body.desiredSize ?? 0) > 0) callback();
    else this.#waiting = () => callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    // The body ends after 'finish', so what waits for it (the audit event) is done when a reader sees the end.
    this.once("finish", () => {
      if (this.#bodyDone) return;
      this.#bodyDone = true;
      this.#body?.close();
    });
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.#headSent) this.#reject(error ?? new Error("the server closed the response without answering"));
    if (!this.#bodyDone) {
      this.#bodyDone = true;
      // A body cut before its end fails its reader, as a connection reset mid-body does.
      this.#body?.error(error ?? new Error("the response was cut before its end"));
    }
    this.#release();
    callback(error);
  }

  #release(): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.();
  }

  #sendHead(): void {
    if (this.#headSent) return;
    this.#headSent = true;
    if (!this.hasHeader("date")) this.#headers.set("date", { name: "Date", value: new Date().toUTCString() });
    if (this.#streaming && !this.hasHeader("content-length") && !this.hasHeader("transfer-encoding")) {
      this.#headers.set("transfer-encoding", { name: "Transfer-Encoding", value: "chunked" });
    }
    const headers = new Headers();
    for (const { name, value } of this.#headers.values()) {
      for (const one of Array.isArray(value) ? value : [String(value)]) headers.append(name, one);
    }
    const hasBody = this.req.method !== "HEAD" && !bodiless.has(this.statusCode);
    const body = hasBody
      ? new ReadableStream<Uint8Array>(
          {
            start: (controller) => {
              this.#body = controller;
            },
            pull: () => this.#release(),
            cancel: () => {
              this.#bodyDone = true;
              this.destroy();
            },
          },
          new ByteLengthQueuingStrategy({ highWaterMark: streamBufferBytes }),
        )
      : null;
    if (!hasBody) this.#bodyDone = true;
    this.#resolve(
      new Response(body as ConstructorParameters<typeof Response>[0], {
        status: this.statusCode,
        statusText: this.statusMessage || (STATUS_CODES[this.statusCode] ?? ""),
        headers,
      }),
    );
  }
}
