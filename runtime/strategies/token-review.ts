// TokenReview (authentication.k8s.io/v1): is this bearer token good, and whose is it? The server's token
// authenticators answer, as they would for a request carrying it (kube's pkg/registry/authentication/tokenreview);
// webhook token authenticators of other servers post these.
import { type Authenticated, AuthenticationError } from "../access/authenticator.js";
import { badRequest, internal } from "../errors/status-error.js";
import { asObject, type JsonObject } from "../validation/walk.js";
import type { KindStrategy } from "./hook-request.js";
import { encodedMetadata, text, texts } from "./review-fields.js";
import { userInfoJson } from "./user-info-json.js";

export const strategy: KindStrategy = {
  async answerCreate(obj, request) {
    const spec = asObject(obj.spec) ?? {};
    const token = text(spec.token);
    if (token === "") throw badRequest("token is required for TokenReview in authentication");
    const audiences = texts(spec.audiences);
    let result: Authenticated | undefined;
    let error: string | undefined;
    try {
      result = await request.access.tokenAuthenticator.authenticateToken(
        token,
        audiences.length > 0 ? audiences : undefined,
      );
    } catch (e) {
      if (!(e instanceof AuthenticationError)) throw e;
      error = e.message;
    }
    // As kube's bearer-token authenticator says of a token nobody accepts.
    if (result === undefined && error === undefined) error = "invalid bearer token";
    // An audience-aware authenticator must have checked the token against one of the audiences asked for.
    if (
      audiences.length > 0 &&
      result?.audiences !== undefined &&
      !result.audiences.some((a) => audiences.includes(a))
    ) {
      throw internal("error validating audiences");
    }
    const status: JsonObject = {
      ...(result !== undefined && { authenticated: true }),
      user: result === undefined ? {} : userInfoJson(result.user),
      ...(result?.audiences !== undefined && result.audiences.length > 0 && { audiences: result.audiences }),
      ...(error !== undefined && { error }),
    };
    return {
      kind: "TokenReview",
      apiVersion: "authentication.k8s.io/v1",
      metadata: encodedMetadata(obj.metadata),
      spec: { token, ...(audiences.length > 0 && { audiences }) },
      status,
    };
  },
};
