// What admission learns about the API request behind a write: who asks, and where its warnings and audit
// annotations go (the response's Warning headers and the request's audit event).

import { adminUser } from "../access/user-info.js";
import type { AdmissionRequestInfo } from "../admission/admission.js";
import type { RequestContext } from "../server/context.js";

export function admissionRequestOf(ctx: RequestContext): AdmissionRequestInfo {
  return {
    user: ctx.user ?? adminUser,
    warn(text) {
      ctx.warnings ??= [];
      ctx.warnings.push(text);
    },
    annotate(key, value) {
      ctx.auditAnnotations ??= {};
      ctx.auditAnnotations[key] = value;
    },
  };
}
