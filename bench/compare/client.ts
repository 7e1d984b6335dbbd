// The one client every server is measured with: node:https, a keep-alive agent, a bearer token, JSON.
import { Agent, request } from "node:https";

export interface ClientConfig {
  /** https://host:port */
  base: string;
  token: string;
  /** PEM of the CA that signed the server's certificate. */
  ca: string;
  /** Keep-alive sockets the agent may open. */
  maxSockets: number;
}

export interface Reply {
  status: number;
  /** The body, unless the call asked to count its bytes only. */
  body: string;
  bytes: number;
}

export class BenchClient {
  readonly agent: Agent;

  constructor(readonly config: ClientConfig) {
    this.agent = new Agent({ keepAlive: true, maxSockets: config.maxSockets, ca: config.ca });
  }

  send(method: string, path: string, body?: string, keepBody = true): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = request(
        `${this.config.base}${path}`,
        {
          method,
          agent: this.agent,
          headers: {
            Authorization: `Bearer ${this.config.token}`,
            Accept: "application/json",
            ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let bytes = 0;
          res.on("data", (chunk: Buffer) => {
            bytes += chunk.length;
            if (keepBody) chunks.push(chunk);
          });
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, body: keepBody ? Buffer.concat(chunks).toString() : "", bytes }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }

  /** A JSON answer with a 2xx status, else an error naming the call and the answer. */
  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const reply = await this.send(method, path, body === undefined ? undefined : JSON.stringify(body));
    if (reply.status < 200 || reply.status > 299) {
      throw new Error(`${method} ${path}: ${reply.status} ${reply.body.slice(0, 300)}`);
    }
    return JSON.parse(reply.body) as T;
  }

  close(): void {
    this.agent.destroy();
  }
}
