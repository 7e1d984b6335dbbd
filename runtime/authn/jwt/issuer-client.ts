// GETs to a JWT issuer (discovery document, key set), as kube's OIDC authenticator makes them: over TLS
// trusting the issuer's `certificateAuthority` when given (the host's roots otherwise), 30 s per request,
// errors in Go's words (`Get "https://…": …`).
import { request as httpRequest, STATUS_CODES } from "node:http";
import { request as httpsRequest } from "node:https";
import { goQuote } from "../../errors/go-format.js";

export interface IssuerResponse {
  status: number;
  /** Go's resp.Status: `404 Not Found`. */
  statusLine: string;
  contentType: string;
  body: string;
}

/** A key set or discovery document larger than this is refused rather than buffered. */
const maxBodyBytes = 10 * 1024 * 1024;

export class IssuerClient {
  constructor(
    /** PEM certificates to trust; undefined trusts the host's roots. */
    private readonly ca?: string,
    private readonly timeoutMs = 30_000,
  ) {}

  get(url: string, signal?: AbortSignal): Promise<IssuerResponse> {
    return new Promise((resolve, reject) => {
      const fail = (why: string) => reject(new Error(`Get ${goQuote(url)}: ${why}`));
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        fail("invalid URL");
        return;
      }
      const https = target.protocol === "https:";
      if (!https && target.protocol !== "http:") {
        fail(`unsupported protocol scheme ${goQuote(target.protocol.slice(0, -1))}`);
        return;
      }
      const options = {
        method: "GET",
        headers: { accept: "application/json" },
        timeout: this.timeoutMs,
        ...(signal === undefined ? {} : { signal }),
        ...(https && this.ca !== undefined ? { ca: this.ca } : {}),
      };
      const req = (https ? httpsRequest : httpRequest)(target, options, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBodyBytes) res.destroy(new Error(`response body larger than ${maxBodyBytes} bytes`));
          else chunks.push(chunk);
        });
        res.on("error", (error) => fail(error.message));
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          resolve({
            status,
            statusLine: `${status} ${res.statusMessage ?? STATUS_CODES[status] ?? ""}`,
            contentType: String(res.headers["content-type"] ?? ""),
            body: Buffer.concat(chunks).toString("utf8"),
          });
        });
      });
      req.on("timeout", () => req.destroy(new Error("context deadline exceeded (Client.Timeout exceeded)")));
      req.on("error", (error) => fail(error.message));
      req.end();
    });
  }
}

/** go-oidc's unmarshalResp: the body as JSON, or an error naming the content type. */
export function responseJson(response: IssuerResponse): unknown {
  try {
    return JSON.parse(response.body);
  } catch (error) {
    const why = (error as Error).message;
    const mediaType = response.contentType.split(";")[0]?.trim().toLowerCase();
    if (mediaType === "application/json") {
      throw new Error(`got Content-Type = application/json, but could not unmarshal as JSON: ${why}`);
    }
    throw new Error(`expected Content-Type = application/json, got ${goQuote(response.contentType)}: ${why}`);
  }
}
