// The ValidatingAdmissionPolicy admission plugin: every write is checked against the policies its
// bindings put in force, as kube-apiserver's validating policy dispatcher does it. Policies and
// bindings are read from the API on each write (the watch cache serves them from memory); each
// policy generation is compiled once.
import { kinds } from "../../../generated/registry.js";
import type { UserInfo } from "../../access/user-info.js";
import {
  type CelAuthorizer,
  newAuthorizerValue,
  newRequestResourceCheck,
} from "../../cel/library/kubernetes/authorizer-library.js";
import { namespaces } from "../../controllers/core-kinds.js";
import { forbidden, StatusError, type StatusReason } from "../../errors/status-error.js";
import type { KubeObject } from "../../object/kube-object.js";
import { groupResource, kindReference } from "../../registry/kinds.js";
import { byGroupVersionKind } from "../../registry/lookup.js";
import type { ResourceKindRecord, ServedKind } from "../../registry/served-kind.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { convertToSync } from "../../resources/versioned.js";
import type { Labels } from "../../selection/label-selector.js";
import { type LabelSelectorObject, labelSelectorFromObject } from "../../selection/label-selector-object.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../admission.js";
import { type CompiledPolicy, compilePolicy, type PolicyEnvironment, type PolicySpec } from "./compile-policy.js";
import { evaluatePolicy, type PolicyResult } from "./evaluate-policy.js";
import { type MatchResources, matchResources, type RuleRequest } from "./match-resources.js";
import { admissionRequestJson } from "./request-variable.js";

const group = "admissionregistration.k8s.io";

function servedKind(kind: string): ServedKind {
  const record = byGroupVersionKind(kinds, group, "v1", kind);
  if (record?.resource === undefined) throw new Error(`the registry has no ${group}/v1 ${kind}`);
  return kindReference(record as ResourceKindRecord);
}

const policyKind = servedKind("ValidatingAdmissionPolicy");
const bindingKind = servedKind("ValidatingAdmissionPolicyBinding");

/** Who in-server controllers write as, for `request.userInfo` when a write has no API request. */
const controllerUser: UserInfo = { name: "system:kube-controller-manager", groups: ["system:authenticated"] };

interface ParamRef {
  name?: string;
  namespace?: string;
  selector?: LabelSelectorObject;
  parameterNotFoundAction?: string;
}

interface BindingSpec {
  policyName?: string;
  paramRef?: ParamRef;
  matchResources?: MatchResources;
  validationActions?: string[];
}

type Stored<S> = KubeObject & { metadata: { name: string; uid?: string; resourceVersion?: string }; spec?: S };

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

function ruleRequest(kind: ServedKind, a: AdmissionAttributes): RuleRequest & { kind: string } {
  return {
    operation: a.operation,
    group: kind.group,
    version: kind.version,
    resource: kind.resource.plural,
    subresource: a.subresource ?? "",
    namespaced: kind.resource.scope === "Namespaced",
    name: a.name,
    kind: kind.kind,
  };
}

const equivalentKinds = new Map<string, ServedKind[]>();

/** The other served versions of a kind's resource, which Equivalent matching may match it at. */
function equivalentsOf(kind: ServedKind): ServedKind[] {
  const key = `${kind.group}/${kind.resource.plural}/${kind.version}`;
  let found = equivalentKinds.get(key);
  if (found === undefined) {
    found = kinds
      .filter(
        (k): k is ResourceKindRecord =>
          k.resource !== undefined &&
          k.group === kind.group &&
          k.resource.plural === kind.resource.plural &&
          k.version !== kind.version,
      )
      .map(kindReference);
    equivalentKinds.set(key, found);
  }
  return found;
}

/** The request at its own version first, then at every other served version of the same resource. */
function candidatesOf(a: AdmissionAttributes): (RuleRequest & { kind: string })[] {
  return [ruleRequest(a.kind, a), ...equivalentsOf(a.kind).map((k) => ruleRequest(k, a))];
}

export function validatingAdmissionPolicy(api: ResourceApi, options: PolicyPluginOptions): AdmissionPlugin {
  const compiled = new Map<string, CompiledPolicy>();

  const compiledFor = (policy: Stored<PolicySpec>): CompiledPolicy => {
    const key = `${policy.metadata.uid ?? policy.metadata.name}/${policy.metadata.resourceVersion ?? ""}`;
    let entry = compiled.get(key);
    if (entry === undefined) {
      entry = compilePolicy(policy.spec ?? {}, options.environment());
      compiled.set(key, entry);
    }
    return entry;
  };

  const namespaceObject = async (name: string): Promise<KubeObject | undefined> => {
    try {
      return (await api.get({ kind: namespaces, name })).object;
    } catch (error) {
      if (error instanceof StatusError && error.code === 404) return undefined;
      throw error;
    }
  };

  /** The param objects a binding names; an Error is a configuration problem. */
  const collectParams = async (
    spec: PolicySpec,
    ref: ParamRef | undefined,
    requestNamespace: string,
  ): Promise<unknown[] | Error> => {
    if (spec.paramKind === undefined) return [null];
    const { apiVersion = "", kind = "" } = spec.paramKind;
    const [g, v] = apiVersion.includes("/") ? apiVersion.split("/", 2) : ["", apiVersion];
    // Any kind this server serves, custom resources included, as kube finds param kinds through its REST mapper.
    const paramKind = api.kinds.kindOf(g ?? "", v ?? "", kind);
    if (paramKind === undefined) return new Error(`paramKind kind ${kind} in ${apiVersion} is not known`);
    if (ref === undefined) return new Error("paramRef is required when the policy has a paramKind");
    const namespaced = paramKind.resource.scope === "Namespaced";
    const namespace = namespaced ? (ref.namespace ?? requestNamespace) : undefined;
    if (namespaced && namespace === "") {
      return new Error("cannot use namespaced paramRef in policy binding that matches cluster-scoped resources");
    }
    let params: unknown[];
    if (ref.name !== undefined && ref.name !== "") {
      try {
        params = [(await api.get({ kind: paramKind, namespace, name: ref.name })).object];
      } catch (error) {
        if (!(error instanceof StatusError && error.code === 404)) throw error;
        params = [];
      }
    } else {
      const selector = labelSelectorFromObject(ref.selector ?? {});
      const listed = await api.list({ kind: paramKind, namespace });
      params = listed.items
        .map((item) => item.object)
        .filter((o) => selector.ok && selector.selector.matches((o.metadata as { labels?: Labels }).labels ?? {}));
    }
    if (params.length === 0 && ref.parameterNotFoundAction === "Deny") {
      return new Error("no params found for policy binding with `Deny` parameterNotFoundAction");
    }
    return params;
  };

  return {
    name: "ValidatingAdmissionPolicy",
    async validate(a) {
      if (a.kind.group === group) return;
      const bindings = (await api.list({ kind: bindingKind })).items.map((i) => i.object as Stored<BindingSpec>);
      if (bindings.length === 0) return;
      const policies = (await api.list({ kind: policyKind })).items.map((i) => i.object as Stored<PolicySpec>);
      const live = new Set(policies.map((p) => `${p.metadata.uid ?? p.metadata.name}/${p.metadata.resourceVersion}`));
      for (const key of compiled.keys()) if (!live.has(key)) compiled.delete(key);

      const user = a.request?.user ?? controllerUser;
      const authorizer = newAuthorizerValue(options.authorizer, user);
      const namespaced = a.kind.resource.scope === "Namespaced";
      const ownNamespace = a.kind.group === "" && a.kind.kind === "Namespace" ? (a.object ?? a.oldObject) : undefined;
      const namespace = namespaced && a.namespace !== undefined ? await namespaceObject(a.namespace) : undefined;
      const namespaceLabels = (namespace ?? ownNamespace)?.metadata as { labels?: Labels } | undefined;
      const candidates = candidatesOf(a);
      const input = {
        attributes: a,
        candidates,
        namespaceLabels: namespaced || ownNamespace !== undefined ? (namespaceLabels?.labels ?? {}) : undefined,
      };
      const denials: Denial[] = [];

      for (const policy of policies.sort((x, y) => x.metadata.name.localeCompare(y.metadata.name))) {
        const spec = policy.spec ?? {};
        const policyName = policy.metadata.name;
        const matched = matchResources(spec.matchConstraints, input);
        if (matched === undefined) continue;
        const program = compiledFor(policy);
        const failClosed = (binding: string | undefined, message: string) => {
          if (program.failurePolicy === "Fail") denials.push({ policy: policyName, binding, message });
        };
        const annotations = new Map<string, string[]>();
        const own = bindings
          .filter((b) => b.spec?.policyName === policyName)
          .sort((x, y) => x.metadata.name.localeCompare(y.metadata.name));
        for (const binding of own) {
          const bindingSpec = binding.spec ?? {};
          if (matchResources(bindingSpec.matchResources, { ...input, candidates: [matched] }) === undefined) continue;
          const params = await collectParams(spec, bindingSpec.paramRef, a.namespace ?? "");
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
          });
          for (const param of params) {
            const result = evaluatePolicy(program, {
              object: a.operation === "DELETE" ? null : at(a.object),
              oldObject: at(a.oldObject),
              request,
              params: param,
              namespaceObject: namespace ?? null,
              authorizer,
              requestResource: newRequestResourceCheck(authorizer, {
                group: a.kind.group,
                resource: a.kind.resource.plural,
                subresource: a.subresource ?? "",
                namespace: a.namespace ?? "",
                name: a.name,
              }),
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
  binding: Stored<BindingSpec>,
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
