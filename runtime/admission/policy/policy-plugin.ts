import { type CelAuthorizer, newAuthorizerValue } from "../../cel/library/kubernetes/authorizer-library.js";
import { forbidden, StatusError, type StatusReason } from "../../errors/status-error.js";
import type { KubeObject } from "../../object/kube-object.js";
import { groupResource } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { convertToSync } from "../../resources/versioned.js";
import { type AdmissionAttributes, type AdmissionPlugin, admissionOptions } from "../admission.js";
import { type CompiledPolicy, compilePolicy, type PolicyEnvironment, type PolicySpec } from "./compile-policy.js";
import { evaluatePolicy, type PolicyResult } from "./evaluate-policy.js";
import { type MatchResources, matchResources, type RuleRequest } from "./match-resources.js";
import { PolicyCatalog, type StoredPolicyObject } from "./policy-catalog.js";
import {
  admissionRegistrationKind,
  collectParams,
  isPolicyResource,
  type ParamRef,
  requestMatch,
  requestResourceOf,
  userOf,
} from "./policy-inputs.js";
import { admissionRequestJson } from "./request-variable.js";

const kinds = {
  policy: admissionRegistrationKind("ValidatingAdmissionPolicy"),
  binding: admissionRegistrationKind("ValidatingAdmissionPolicyBinding"),
};

interface BindingSpec {
  policyName?: string;
  paramRef?: ParamRef;
  matchResources?: MatchResources;
  validationActions?: string[];
}

interface Denial {
  policy: string;
  binding: string | undefined;
  message: string;
  reason?: string | undefined;
}

export interface PolicyPluginOptions {
  environment: () => PolicyEnvironment;
  /** Answers the `authorizer` checks expressions make. */
  authorizer: CelAuthorizer;
}

/** kube's reasonToCode for the reasons a validation may name. */
function reasonCode(reason: string): number {
  switch (reason) {
    case "Unauthorized":
      return 401;
    case "Forbidden":
      return 403;
    case "RequestEntityTooLarge":
      return 413;
    default:
      return 422;
  }
}

export function validatingAdmissionPolicy(api: ResourceApi, options: PolicyPluginOptions): AdmissionPlugin {
  const catalog = new PolicyCatalog<PolicySpec, BindingSpec, CompiledPolicy>(api, kinds, (spec) =>
    compilePolicy(spec, options.environment()),
  );

  return {
    name: "ValidatingAdmissionPolicy",
    async validate(a) {
      if (isPolicyResource(a)) return;
      const policies = await catalog.inForce();
      if (policies.length === 0) return;

      const user = userOf(a);
      const authorizer = newAuthorizerValue(options.authorizer, user);
      const { namespace, candidates, input } = await requestMatch(api, a);
      const denials: Denial[] = [];

      for (const { policy, compiled, bindings: own } of policies) {
        const spec = policy.spec ?? {};
        const policyName = policy.metadata.name;
        const matched = matchResources(spec.matchConstraints, input);
        if (matched === undefined) continue;
        const program = compiled();
        const failClosed = (binding: string | undefined, message: string) => {
          if (program.failurePolicy === "Fail") denials.push({ policy: policyName, binding, message });
        };
        const annotations = new Map<string, string[]>();
        for (const binding of own) {
          const bindingSpec = binding.spec ?? {};
          if (matchResources(bindingSpec.matchResources, { ...input, candidates: [matched] }) === undefined) continue;
          const params = await collectParams(api, spec.paramKind, bindingSpec.paramRef, a.namespace ?? "");
          if (params instanceof Error) {
            failClosed(binding.metadata.name, `failed to configure binding: ${params.message}`);
            continue;
          }
          const version = matched.version;
          const at = (obj: KubeObject | undefined) =>
            obj === undefined ? null : version === a.kind.version ? obj : convertToSync(a.kind, obj, version);
          const request = admissionRequestJson({
            operation: a.operation,
            request: candidates[0] as RuleRequest & { kind: string },
            matched: candidates.find((c) => c.version === version) ?? (candidates[0] as RuleRequest & { kind: string }),
            namespace: a.namespace ?? "",
            user,
            dryRun: a.dryRun,
            options: admissionOptions(a),
          });
          for (const param of params) {
            const result = evaluatePolicy(program, {
              object: a.operation === "DELETE" ? null : at(a.object),
              oldObject: at(a.oldObject),
              request,
              params: param,
              namespaceObject: namespace ?? null,
              authorizer,
              requestResource: requestResourceOf(authorizer, a),
            });
            act(result, policyName, binding, a, denials, annotations, failClosed);
          }
        }
        for (const [key, values] of annotations) a.request?.annotate(`${policyName}/${key}`, values.join(", "));
      }

      const first = denials[0];
      if (first !== undefined) throw denied(a, first);
    },
  };
}

function act(
  result: PolicyResult,
  policy: string,
  binding: StoredPolicyObject<BindingSpec>,
  a: AdmissionAttributes,
  denials: Denial[],
  annotations: Map<string, string[]>,
  failClosed: (binding: string | undefined, message: string) => void,
): void {
  const bindingName = binding.metadata.name;
  if (result.matchError !== undefined) {
    failClosed(bindingName, result.matchError);
    return;
  }
  const actions = binding.spec?.validationActions ?? [];
  for (const decision of result.decisions) {
    if (decision.action === "admit") continue;
    for (const action of actions) {
      if (action === "Deny") {
        denials.push({ policy, binding: bindingName, message: decision.message, reason: decision.reason });
      } else if (action === "Warn") {
        a.request?.warn(
          `Validation failed for ValidatingAdmissionPolicy '${policy}' with binding '${bindingName}': ${decision.message}`,
        );
      } else if (action === "Audit") {
        a.request?.annotate(
          "validation.policy.admission.k8s.io/validation_failure",
          JSON.stringify([
            {
              message: decision.message,
              policy,
              binding: bindingName,
              expressionIndex: decision.index,
              validationActions: actions,
            },
          ]),
        );
      }
    }
  }
  for (const annotation of result.auditAnnotations) {
    if (annotation.error !== undefined) {
      failClosed(bindingName, annotation.error);
    } else if (annotation.value !== undefined) {
      const values = annotations.get(annotation.key) ?? [];
      if (!values.includes(annotation.value)) values.push(annotation.value);
      annotations.set(annotation.key, values);
    }
  }
}

/** kube's denial: admission.NewForbidden's text with the validation's reason and code, and one cause. */
function denied(a: AdmissionAttributes, denial: Denial): StatusError {
  const message =
    denial.binding === undefined
      ? `ValidatingAdmissionPolicy '${denial.policy}' denied request: ${denial.message}`
      : `ValidatingAdmissionPolicy '${denial.policy}' with binding '${denial.binding}' denied request: ${denial.message}`;
  const base = forbidden(groupResource(a.kind), a.name, message).status;
  const reason = (denial.reason ?? "Invalid") as StatusReason;
  return new StatusError(reasonCode(reason), reason, base.message, {
    ...base.details,
    causes: [{ message }],
  });
}
