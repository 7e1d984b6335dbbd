// A local OpenID Connect issuer for tests: HTTPS on 127.0.0.1 with a kapi-made certificate, serving the
// discovery document and a JWKS whose keys tests can rotate, counting requests, and signing tokens.
import type { ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { createServingCertificates } from "../../../../runtime/http/certificates.js";

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
type SigningKey = { kid: string; alg: string; privateKey: PrivateKey; jwk: JWK };

export class TestIssuer {
  readonly requests = { discovery: 0, jwks: 0 };
  /** Overrides the discovery document's issuer (to test the mismatch). */
  discoveryIssuer: string | undefined;
  /** Status the discovery endpoint answers with. */
  discoveryStatus = 200;
  private keys: SigningKey[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly ca: string,
  ) {}

  static async start(): Promise<TestIssuer> {
    const certs = createServingCertificates({ dns: ["localhost"], ips: ["127.0.0.1"] });
    let issuer: TestIssuer | undefined;
    const server = createServer({ cert: certs.cert, key: certs.key }, (req, res) => issuer?.serve(req.url ?? "", res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    issuer = new TestIssuer(server, `https://127.0.0.1:${port}`, certs.caCert);
    return issuer;
  }

  private serve(path: string, res: ServerResponse): void {
    const [status, body] = this.answer(path);
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }

  private answer(path: string): [number, unknown] {
    if (path === "/.well-known/openid-configuration" || path === "/custom/discovery") {
      this.requests.discovery++;
      if (this.discoveryStatus !== 200) return [this.discoveryStatus, { error: "unavailable" }];
      return [200, { issuer: this.discoveryIssuer ?? this.url, jwks_uri: `${this.url}/keys` }];
    }
    if (path === "/keys") {
      this.requests.jwks++;
      return [200, { keys: this.keys.map((k) => k.jwk) }];
    }
    return [404, { error: "not found" }];
  }

  /** Adds a signing key to the JWKS and returns its kid. */
  async addKey(alg: "RS256" | "ES256", kid: string): Promise<string> {
    const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
    this.keys.push({ kid, alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" } });
    return kid;
  }

  /** Removes every key but the given ones from the JWKS (signing with the removed ones still works). */
  publishOnly(...kids: string[]): void {
    this.hidden.push(...this.keys.filter((k) => !kids.includes(k.kid)));
    this.keys = this.keys.filter((k) => kids.includes(k.kid));
  }

  private hidden: SigningKey[] = [];

  /** A token signed with the key `kid`; claims default to a valid token for audience "kapi". */
  async token(
    kid: string,
    claims: Record<string, unknown> = {},
    header: Record<string, unknown> = {},
  ): Promise<string> {
    const key = [...this.keys, ...this.hidden].find((k) => k.kid === kid);
    if (key === undefined) throw new Error(`no key ${kid}`);
    const now = Math.floor(Date.now() / 1000);
    const payload = { iss: this.url, aud: "kapi", sub: "jane", iat: now, exp: now + 600, ...claims };
    return new SignJWT(payload).setProtectedHeader({ alg: key.alg, kid, ...header }).sign(key.privateKey);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
