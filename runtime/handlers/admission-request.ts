// What admission learns about the API request behind a write: who asks, and where its warnings and audit
// annotations go (the response's Warning headers and the request's audit event).

import { adminUser } from "../access/user-info.js";
import type { AdmissionRequestInfo } from "../admission/admission.js";
import type { RequestContext } from "../server/context.js";

/** The options fields of a write's query as sent: dryRun, fieldManager, fieldValidation. */
export function writeQueryOptions(query: URLSearchParams): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  const dryRun = query.getAll("dryRun");
  if (dryRun.length > 0) options.dryRun = dryRun;
  for (const name of ["fieldManager", "fieldValidation"]) {
    const value = query.get(name);
    if (value !== null && value !== "") options[name] = value;
  }
  return options;
}

export function admissionRequestOf(ctx: RequestContext, options?: Record<string, unknown>): AdmissionRequestInfo {
  return {
    user: ctx.user ?? adminUser,
    ...(options === undefined ? {} : { options }),
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
