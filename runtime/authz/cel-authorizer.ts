// The server's authorizer as CEL expressions call it (`authorizer.group(…).check(verb)` in admission
// policies and webhook match conditions): CEL evaluates synchronously, so an authorizer that would have to
// wait (a webhook without a cached answer) counts as an errored "no opinion", which expressions can test
// with `errored()`.

import type { Authorizer } from "../access/authorizer.js";
import type { CelAuthorizer } from "../cel/library/kubernetes/authorizer-library.js";

export function celAuthorizer(authorizer: () => Authorizer): CelAuthorizer {
  return {
    authorize(attributes) {
      const answer = authorizer().authorize(attributes);
      if (!(answer instanceof Promise)) return answer;
      answer.catch(() => {});
      return { decision: "noOpinion", reason: "", error: "the authorizer cannot answer without waiting" };
    },
  };
}
