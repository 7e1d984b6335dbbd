// SelfSubjectReview (authentication.k8s.io/v1): who am I? The caller's user as authentication (and
// impersonation) left it, as `kubectl auth whoami` shows it (kube's pkg/registry/authentication/selfsubjectreview).
import { formatTime } from "../resources/timestamps.js";
import type { KindStrategy } from "./hook-request.js";
import { userInfoJson } from "./user-info-json.js";

export const strategy: KindStrategy = {
  async answerCreate(_obj, request) {
    return {
      kind: "SelfSubjectReview",
      apiVersion: "authentication.k8s.io/v1",
      metadata: { creationTimestamp: formatTime(new Date()) },
      status: { userInfo: userInfoJson(request.user) },
    };
  },
};
