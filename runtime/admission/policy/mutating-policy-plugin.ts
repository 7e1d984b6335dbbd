// The MutatingAdmissionPolicy admission plugin: on create, update and connect, every policy its bindings
// put in force mutates the object in turn (ApplyConfiguration or JSONPatch), as kube-apiserver's mutating
// policy dispatcher does: matching, params, match conditions, failurePolicy, and reinvocation of IfNeeded
// policies when a later change follows them. Policies and bindings are read from the API on each write;
// each policy generation is compiled once.
import { isDeepStrictEqual } from "node:util";
import { celAuthorizer } from "../../authz/cel-authorizer.js";
import { newAuthorizerValue } from "../../cel/library/kubernetes/authorizer-library.js";
import { forbidden, StatusError, type StatusReason } from "../../errors/status-error.js";
import type { JsonObject } from "../../object/json-object.js";
import type { KubeObject } from "../../object/kube-object.js";
import { groupResource } from "../../registry/kinds.js";
import { convertToSync } from "../../resources/versioned.js";
import { type AdmissionAttributes, type AdmissionPlugin, admissionOptions } from "../admission.js";
import type { AdmissionPluginContext } from "../plugin-context.js";
import { type MatchResources, matchResources } from "./match-resources.js";
import {
  type CompiledMutatingPolicy,
  compileMutatingPolicy,
  type MutatingPolicySpec,
} from "./mutating-compile-policy.js";
import { MutatingInvocation } from "./mutating-evaluate.js";
import { applyMutation } from "./mutating-patch.js";
import { PolicyReinvocation } from "./mutating-reinvocation.js";
import { PolicyCatalog } from "./policy-catalog.js";
import { admissionPolicyEnvironment } from "./policy-environment.js";
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

export const mutatingAdmissionPolicyPluginName = "MutatingAdmissionPolicy";

const kinds = {
  policy: admissionRegistrationKind("MutatingAdmissionPolicy"),
  binding: admissionRegistrationKind("MutatingAdmissionPolicyBinding"),
};

interface BindingSpec {
  policyName?: string;
  paramRef?: ParamRef;
  matchResources?: MatchResources;
}

/** kube's PolicyError: its text names the policy and, when there is one, the binding. */
interface PolicyError {
  policy: string;
  binding: string | undefined;
  failurePolicy: "Fail" | "Ignore";
  message: string;
  reason?: StatusReason;
}

function errorText(e: PolicyError): string {
  return e.binding === undefined
    ? `policy "${e.policy}" denied request: ${e.message}`
    : `policy '${e.policy}' with binding '${e.binding}' denied request: ${e.message}`;
}

/** kube's denial: admission.NewForbidden's details, the first error's text and reason, every error a cause. */
function denied(a: AdmissionAttributes, errors: readonly PolicyError[]): StatusError {
  const first = errors[0] as PolicyError;
  const base = forbidden(groupResource(a.kind), a.name, "admission request denied by policy").status;
  return new StatusError(403, first.reason ?? "Forbidden", errorText(first), {
    ...base.details,
    causes: errors.map((e) => ({ message: errorText(e) })),
  });
}

const mutatingOperations = new Set(["CREATE", "UPDATE", "CONNECT"]);

export function mutatingAdmissionPolicy(context: AdmissionPluginContext): AdmissionPlugin {
  const api = context.resources;
  const authorizerChecks = celAuthorizer(context.authorizer);
  const catalog = new PolicyCatalog<MutatingPolicySpec, BindingSpec, CompiledMutatingPolicy>(api, kinds, (spec) =>
    compileMutatingPolicy(spec, admissionPolicyEnvironment()),
  );

  return {
    name: mutatingAdmissionPolicyPluginName,
    async mutate(a) {
      if (!mutatingOperations.has(a.operation) || isPolicyResource(a)) return;
      const policies = await catalog.inForce();
      if (policies.length === 0) return;

      const reinvocation = a.reinvocation;
      const reinvoke = reinvocation === undefined ? undefined : PolicyReinvocation.of(reinvocation, this.name);
      if (reinvocation?.isReinvoke === true && reinvoke?.outputChangedSinceLastInvocation(a.object) === true) {
        reinvoke.requireReinvokingPreviouslyInvoked();
      }

      const user = userOf(a);
      const authorizer = newAuthorizerValue(authorizerChecks, user);
      const { namespace, candidates, input } = await requestMatch(api, a);
      const errors: PolicyError[] = [];

      for (const { policy, compiled, bindings: own } of policies) {
        const spec = policy.spec ?? {};
        const policyName = policy.metadata.name;
        const matched = matchResources(spec.matchConstraints, input);
        if (matched === undefined) continue;
        const program = compiled();
        for (const binding of own) {
          const bindingName = binding.metadata.name;
          const bindingSpec = binding.spec ?? {};
          if (matchResources(bindingSpec.matchResources, { ...input, candidates: [matched] }) === undefined) continue;
          const fail = (message: string, reason?: StatusReason) =>
            errors.push({
              policy: policyName,
              binding: bindingName,
              failurePolicy: program.failurePolicy,
              message,
              ...(reason === undefined ? {} : { reason }),
            });
          const params = await collectParams(api, spec.paramKind, bindingSpec.paramRef, a.namespace ?? "");
          if (params instanceof Error) {
            fail(`failed to configure binding: ${params.message}`);
            continue;
          }
          const version = matched.version;
          const matchedRequest =
            candidates.find((c) => c.version === version) ?? (candidates[0] as (typeof candidates)[number]);
          const matchedKind =
            version === a.kind.version
              ? a.kind
              : (api.kinds.kindOf(a.kind.group, version, matchedRequest.kind) ?? a.kind);
          const at = (obj: KubeObject | undefined) =>
            obj === undefined ? null : version === a.kind.version ? obj : convertToSync(a.kind, obj, version);
          const request = admissionRequestJson({
            operation: a.operation,
            request: candidates[0] as (typeof candidates)[number],
            matched: matchedRequest,
            namespace: a.namespace ?? "",
            user,
            dryRun: a.dryRun,
            options: admissionOptions(a),
          });
          for (const param of params) {
            let object = at(a.object) as JsonObject | null;
            const invocation = new MutatingInvocation(program, {
              object,
              oldObject: at(a.oldObject),
              request,
              params: param,
              namespaceObject: namespace ?? null,
              authorizer,
              requestResource: requestResourceOf(authorizer, a),
            });
            const outcome = invocation.matches();
            if ("error" in outcome) {
              fail(outcome.error, "Invalid");
              continue;
            }
            if (!outcome.matches) continue;
            const paramMeta = (param as { metadata?: { name?: string; namespace?: string } } | null)?.metadata;
            const key = JSON.stringify([policyName, bindingName, paramMeta?.namespace ?? "", paramMeta?.name ?? ""]);
            if (reinvocation?.isReinvoke === true && reinvoke?.shouldReinvoke(key) !== true) continue;
            const before = object;
            for (const mutation of program.mutations) {
              if (object === null || mutation === undefined) continue;
              const value = invocation.run(mutation.expression);
              const result = applyMutation(mutation, value, matchedKind.schema.fields, object);
              if (result instanceof Error) {
                fail(result.message, "Invalid");
                continue;
              }
              object = result;
              invocation.setObject(object);
            }
            if (object !== null && object !== before) {
              a.object = (
                version === a.kind.version ? object : convertToSync(matchedKind, object, a.kind.version)
              ) as KubeObject;
              if (!isDeepStrictEqual(before, object)) {
                reinvoke?.requireReinvokingPreviouslyInvoked();
                if (reinvocation !== undefined) reinvocation.requested = true;
              }
            }
            if (program.reinvocationPolicy === "IfNeeded") reinvoke?.addInvokedReinvocable(key);
          }
        }
      }
      reinvoke?.setLastOutput(a.object);

      const failing = errors.filter((e) => e.failurePolicy === "Fail");
      if (failing.length > 0) throw denied(a, failing);
    },
  };
}
