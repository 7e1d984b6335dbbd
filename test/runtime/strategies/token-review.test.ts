// TokenReview against scripted token authenticators: what kube fills in for a good, an unknown and a
// refused token, the audiences asked and answered, and the required token.
import { describe, expect, it } from "vitest";
import { AuthenticationError } from "../../../runtime/access/authenticator.js";
import { StatusError } from "../../../runtime/errors/status-error.js";
import { strategy } from "../../../runtime/strategies/token-review.js";
import { answer, fakeHookRequest, type Scripted } from "./fake-hook-request.js";

const review = (spec: Record<string, unknown>, metadata?: Record<string, unknown>) => ({
  apiVersion: "authentication.k8s.io/v1",
  kind: "TokenReview",
  ...(metadata && { metadata }),
  spec,
});

async function reviewed(spec: Record<string, unknown>, script: Scripted, metadata?: Record<string, unknown>) {
  const fake = fakeHookRequest(script);
  const answered = await answer(strategy, review(spec, metadata), fake.request);
  return { answered, asked: fake.tokensAsked };
}

describe("TokenReview", () => {
  it("answers the token's user and audiences, echoing what was sent", async () => {
    const user = { name: "sa", uid: "u", groups: ["g"], extra: { "z/b": ["2"], a: ["1"] } };
    const { answered, asked } = await reviewed(
      { token: "tok", audiences: ["api", "vault"] },
      { token: async () => ({ user, audiences: ["vault"] }) },
      { name: "r", creationTimestamp: null },
    );
    expect(asked).toEqual([{ token: "tok", audiences: ["api", "vault"] }]);
    expect(answered).toEqual({
      kind: "TokenReview",
      apiVersion: "authentication.k8s.io/v1",
      metadata: { name: "r" },
      spec: { token: "tok", audiences: ["api", "vault"] },
      status: {
        authenticated: true,
        user: { username: "sa", uid: "u", groups: ["g"], extra: { a: ["1"], "z/b": ["2"] } },
        audiences: ["vault"],
      },
    });
    expect(JSON.stringify(Object.keys((answered.status as { user: object }).user))).toBe(
      '["username","uid","groups","extra"]',
    );
  });

  it("checks against the server's audiences when none are asked", async () => {
    const { asked, answered } = await reviewed(
      { token: "tok", audiences: [] },
      { token: async () => ({ user: { name: "x", groups: [] } }) },
    );
    expect(asked).toEqual([{ token: "tok", audiences: undefined }]);
    expect(answered.spec).toEqual({ token: "tok" });
    expect(answered.status).toEqual({ authenticated: true, user: { username: "x" } });
  });

  it("says why a token is not good", async () => {
    const unknown = await reviewed({ token: "nope" }, {});
    expect(unknown.answered.status).toEqual({ user: {}, error: "invalid bearer token" });
    const expired = await reviewed(
      { token: "old" },
      {
        token: async () => {
          throw new AuthenticationError("[invalid bearer token, service account token has expired]");
        },
      },
    );
    expect(expired.answered.status).toEqual({
      user: {},
      error: "[invalid bearer token, service account token has expired]",
    });
  });

  it("refuses a missing token and an answer for other audiences", async () => {
    const missing = await answer(strategy, review({}), fakeHookRequest().request).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(StatusError);
    expect((missing as StatusError).status).toMatchObject({
      code: 400,
      reason: "BadRequest",
      message: "token is required for TokenReview in authentication",
    });
    const wrong = await answer(
      strategy,
      review({ token: "t", audiences: ["a"] }),
      fakeHookRequest({ token: async () => ({ user: { name: "x", groups: [] }, audiences: ["b"] }) }).request,
    ).catch((e: unknown) => e);
    expect((wrong as StatusError).status).toMatchObject({
      code: 500,
      reason: "InternalError",
      message: "Internal error occurred: error validating audiences",
    });
  });

  it("lets other failures through as errors", async () => {
    const failing = fakeHookRequest({
      token: async () => {
        throw new Error("boom");
      },
    });
    await expect(answer(strategy, review({ token: "t" }), failing.request)).rejects.toThrow("boom");
  });
});
