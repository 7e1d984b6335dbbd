// OpenID Connect discovery as go-oidc's NewProvider does it for kube: GET `<url>/.well-known/openid-
// configuration` (or the configured discoveryURL instead), require 200 and a JSON document whose `issuer`
// is exactly the configured URL, and take the key set's address from `jwks_uri`.
import { goQuote } from "../../errors/go-format.js";
import { type IssuerClient, responseJson } from "./issuer-client.js";

const wellKnownPath = "/.well-known/openid-configuration";

export interface ProviderMetadata {
  issuer: string;
  jwksUri: string;
}

export async function discoverProvider(
  client: IssuerClient,
  issuerUrl: string,
  discoveryUrl: string,
  signal?: AbortSignal,
): Promise<ProviderMetadata> {
  const address = discoveryUrl === "" ? `${issuerUrl.replace(/\/$/, "")}${wellKnownPath}` : discoveryUrl;
  const response = await client.get(address, signal);
  if (response.status !== 200) throw new Error(`${response.statusLine}: ${response.body}`);
  let document: unknown;
  try {
    document = responseJson(response);
  } catch (error) {
    throw new Error(`oidc: failed to decode provider discovery object: ${(error as Error).message}`);
  }
  const fields = (document ?? {}) as Record<string, unknown>;
  const issuer = typeof fields.issuer === "string" ? fields.issuer : "";
  if (issuer !== issuerUrl) {
    throw new Error(
      `oidc: issuer did not match the issuer returned by provider, expected ${goQuote(issuerUrl)} got ${goQuote(issuer)}`,
    );
  }
  const jwksUri = typeof fields.jwks_uri === "string" ? fields.jwks_uri : "";
  if (jwksUri === "") throw new Error("oidc: the provider's discovery document has no jwks_uri");
  return { issuer, jwksUri };
}
