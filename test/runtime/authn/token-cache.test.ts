import { describe, expect, it } from "vitest";
import {
  type Authenticated,
  AuthenticationError,
  type TokenAuthenticator,
} from "../../../runtime/access/authenticator.js";
import { CachedTokenAuthenticator } from "../../../runtime/authn/token-cache.js";

function counting(answer: (token: string) => Promise<Authenticated | undefined>) {
  const calls: { token: string; audiences: readonly string[] | undefined }[] = [];
  const authenticator: TokenAuthenticator = {
    authenticateToken: (token, audiences) => {
      calls.push({ token, audiences });
      return answer(token);
    },
  };
  return { authenticator, calls };
}

const jane: Authenticated = { user: { name: "jane", groups: ["dev"] } };

describe("CachedTokenAuthenticator", () => {
  it("keeps successes and failures for their TTLs", async () => {
    let now = 0;
    const { authenticator, calls } = counting(async (token) => (token === "good" ? jane : undefined));
    const cache = new CachedTokenAuthenticator(authenticator, {
      cacheErrors: false,
      successTtlMs: 1000,
      failureTtlMs: 100,
      now: () => now,
    });
    expect(await cache.authenticateToken("good")).toEqual(jane);
    expect(await cache.authenticateToken("bad")).toBeUndefined();
    now = 50;
    await cache.authenticateToken("good");
    await cache.authenticateToken("bad");
    expect(calls).toHaveLength(2);
    now = 150;
    await cache.authenticateToken("good");
    await cache.authenticateToken("bad");
    expect(calls.map((c) => c.token)).toEqual(["good", "bad", "bad"]);
    now = 1001;
    await cache.authenticateToken("good");
    expect(calls).toHaveLength(4);
  });

  it("hands out copies, so a caller cannot change what the next one gets", async () => {
    const cache = new CachedTokenAuthenticator(counting(async () => jane).authenticator, {
      cacheErrors: false,
      successTtlMs: 1000,
      failureTtlMs: 0,
    });
    const first = await cache.authenticateToken("t");
    first?.user.groups.push("changed");
    expect((await cache.authenticateToken("t"))?.user.groups).toEqual(["dev"]);
  });

  it("keys on the audiences too", async () => {
    const { authenticator, calls } = counting(async () => jane);
    const cache = new CachedTokenAuthenticator(authenticator, {
      cacheErrors: false,
      successTtlMs: 1000,
      failureTtlMs: 0,
    });
    await cache.authenticateToken("t", ["a"]);
    await cache.authenticateToken("t", ["b"]);
    await cache.authenticateToken("t", ["a"]);
    expect(calls.map((c) => c.audiences)).toEqual([["a"], ["b"]]);
  });

  it.each([
    [false, 2],
    [true, 1],
  ])("keeps errors only when told to (cacheErrors %s)", async (cacheErrors, lookups) => {
    const { authenticator, calls } = counting(async () => Promise.reject(new AuthenticationError("down")));
    const cache = new CachedTokenAuthenticator(authenticator, { cacheErrors, successTtlMs: 1000, failureTtlMs: 1000 });
    await expect(cache.authenticateToken("t")).rejects.toThrow("down");
    await expect(cache.authenticateToken("t")).rejects.toThrow("down");
    expect(calls).toHaveLength(lookups);
  });

  it("shares one lookup among concurrent callers", async () => {
    let release: (value: Authenticated) => void = () => {};
    const pending = new Promise<Authenticated>((resolve) => {
      release = resolve;
    });
    const { authenticator, calls } = counting(() => (calls.length === 1 ? pending : Promise.resolve(jane)));
    const cache = new CachedTokenAuthenticator(authenticator, { cacheErrors: false, successTtlMs: 0, failureTtlMs: 0 });
    const both = Promise.all([cache.authenticateToken("t"), cache.authenticateToken("t")]);
    release(jane);
    expect(await both).toEqual([jane, jane]);
    expect(calls).toHaveLength(1);
    await cache.authenticateToken("t");
    expect(calls).toHaveLength(2);
  });

  it("forgets the least recently used entries beyond its size", async () => {
    const { authenticator, calls } = counting(async () => jane);
    const cache = new CachedTokenAuthenticator(authenticator, {
      cacheErrors: false,
      successTtlMs: 1000,
      failureTtlMs: 0,
      maxEntries: 2,
    });
    await cache.authenticateToken("a");
    await cache.authenticateToken("b");
    await cache.authenticateToken("a");
    await cache.authenticateToken("c");
    await cache.authenticateToken("a");
    await cache.authenticateToken("b");
    expect(calls.map((c) => c.token)).toEqual(["a", "b", "c", "b"]);
  });
});
