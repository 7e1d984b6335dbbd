import { describe, expect, it } from "vitest";
import { AnonymousAuthenticator } from "../../../runtime/authn/anonymous.js";

const request = (path?: string) => ({
  headers: {},
  peerCertificates: () => [],
  ...(path === undefined ? {} : { path }),
});
const anonymous = { user: { name: "system:anonymous", groups: ["system:unauthenticated"] } };

describe("AnonymousAuthenticator", () => {
  it("makes every request anonymous without conditions", async () => {
    expect(await new AnonymousAuthenticator().authenticate(request("/api"))).toEqual(anonymous);
    expect(await new AnonymousAuthenticator([]).authenticate(request())).toEqual(anonymous);
  });

  it("with conditions, only the listed paths, compared exactly", async () => {
    const authenticator = new AnonymousAuthenticator([{ path: "/livez" }, { path: "/readyz" }]);
    expect(await authenticator.authenticate(request("/livez"))).toEqual(anonymous);
    expect(await authenticator.authenticate(request("/readyz"))).toEqual(anonymous);
    expect(await authenticator.authenticate(request("/livez/ping"))).toBeUndefined();
    expect(await authenticator.authenticate(request("/api"))).toBeUndefined();
    expect(await authenticator.authenticate(request())).toBeUndefined();
  });
});
