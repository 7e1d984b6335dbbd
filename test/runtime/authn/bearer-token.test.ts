// The Authorization header split as kube's bearertoken authenticator splits it: trimmed, then cut at single
// spaces. Checked against kube-apiserver v1.36.2: `Bearer  x` (two spaces) and `Bearer` are anonymous (403
// on a list, `Bearer  x` with a 299 warning), `bearer x` and `Bearer a b` are tried as tokens (401).
import { describe, expect, it } from "vitest";
import type { AuthenticationRequest, TokenAuthenticator } from "../../../runtime/access/authenticator.js";
import { adminUser } from "../../../runtime/access/user-info.js";
import { BearerTokenAuthenticator, bearerToken, spacedTokenWarning } from "../../../runtime/authn/bearer-token.js";

describe("bearerToken", () => {
  it.each([
    ["Bearer abc", "abc"],
    ["bearer abc", "abc"],
    ["  Bearer abc  ", "abc"],
    ["Bearer a b", "a"],
  ])("reads %j as the token %j", (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  it.each([undefined, "", "Bearer", "Bearer ", "Bearer  abc", "Bearer\tabc", "Basic Zm9vOmJhcg==", "abc"])(
    "finds no token in %j",
    (header) => {
      expect(bearerToken(header)).toBeUndefined();
    },
  );
});

describe("BearerTokenAuthenticator", () => {
  const tokens: TokenAuthenticator = {
    authenticateToken: async (token) => (token === "good" ? { user: adminUser } : undefined),
  };
  const authenticator = new BearerTokenAuthenticator(tokens);

  function request(authorization: string): { request: AuthenticationRequest; warnings: string[] } {
    const warnings: string[] = [];
    return {
      request: { headers: { authorization }, peerCertificates: () => [], warn: (m) => warnings.push(m) },
      warnings,
    };
  }

  it("leaves a token after two spaces to the other authenticators, with kube's warning", async () => {
    const { request: spaced, warnings } = request("Bearer  good");
    expect(await authenticator.authenticate(spaced)).toBeUndefined();
    expect(warnings).toEqual([spacedTokenWarning]);
  });

  it("warns about nothing for an empty token", async () => {
    const { request: empty, warnings } = request("Bearer ");
    expect(await authenticator.authenticate(empty)).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it("authenticates the token, and refuses one nobody knows", async () => {
    expect((await authenticator.authenticate(request("Bearer good").request))?.user).toBe(adminUser);
    await expect(authenticator.authenticate(request("Bearer a b").request)).rejects.toThrow("invalid bearer token");
  });
});
