// A HookRequest over an access control the test scripts: the authorizer answers and records what it was
// asked, the token authenticator answers as told, so the review strategies can be driven without a server.
import type { Authenticated, TokenAuthenticator } from "../../../runtime/access/authenticator.js";
import type { Attributes, Authorizer, Decision, SubjectRules } from "../../../runtime/access/authorizer.js";
import type { UserInfo } from "../../../runtime/access/user-info.js";
import type { KubeObject } from "../../../runtime/object/kube-object.js";
import type { ResourceApi } from "../../../runtime/resources/resource-api.js";
import type { HookRequest, KindStrategy } from "../../../runtime/strategies/hook-request.js";

export const jane: UserInfo = { name: "jane", groups: ["devs", "system:authenticated"], uid: "u-1" };

export interface Scripted {
  decision?: Decision;
  rules?: SubjectRules;
  token?: (token: string, audiences?: readonly string[]) => Promise<Authenticated | undefined>;
}

export interface FakeRequest {
  request: HookRequest;
  asked: Attributes[];
  rulesAsked: { user: UserInfo; namespace: string }[];
  tokensAsked: { token: string; audiences: readonly string[] | undefined }[];
}

export function fakeHookRequest(script: Scripted = {}, user: UserInfo = jane, namespace?: string): FakeRequest {
  const asked: Attributes[] = [];
  const rulesAsked: FakeRequest["rulesAsked"] = [];
  const tokensAsked: FakeRequest["tokensAsked"] = [];
  const authorizer: Authorizer = {
    authorize: (a) => {
      asked.push(a);
      return script.decision ?? { decision: "noOpinion", reason: "" };
    },
    rulesFor: async (u, ns) => {
      rulesAsked.push({ user: u, namespace: ns });
      return script.rules ?? { resourceRules: [], nonResourceRules: [], incomplete: false };
    },
  };
  const tokenAuthenticator: TokenAuthenticator = {
    authenticateToken: (token, audiences) => {
      tokensAsked.push({ token, audiences });
      return script.token?.(token, audiences) ?? Promise.resolve(undefined);
    },
  };
  const request: HookRequest = {
    user,
    ...(namespace === undefined ? {} : { namespace }),
    dryRun: false,
    warn: () => {},
    access: { authenticator: { authenticate: async () => undefined }, tokenAuthenticator, authorizer },
    resources: {} as ResourceApi,
  };
  return { request, asked, rulesAsked, tokensAsked };
}

/** Calls the strategy's answerCreate, which every review strategy has. */
export function answer(strategy: KindStrategy, obj: KubeObject, request: HookRequest): Promise<KubeObject> {
  if (strategy.answerCreate === undefined) throw new Error("not a review strategy");
  return strategy.answerCreate(obj, request);
}
