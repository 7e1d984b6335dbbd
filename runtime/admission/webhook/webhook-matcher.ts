import { type CelAuthorizer, newAuthorizerValue } from "../../cel/library/kubernetes/authorizer-library.js";
import { namespaces } from "../../controllers/core-kinds.js";
import { forbidden, StatusError } from "../../errors/status-error.js";
import type { KubeObject } from "../../object/kube-object.js";
import { groupResource } from "../../registry/kinds.js";
import type { ServedKind } from "../../registry/served-kind.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { convertTo } from "../../resources/versioned.js";
import type { Labels } from "../../selection/label-selector.js";
import { type LabelSelectorObject, labelSelectorFromObject } from "../../selection/label-selector-object.js";
import { type AdmissionAttributes, admissionOptions, isNamespaceRequest } from "../admission.js";
import type { PolicyEnvironment } from "../policy/compile-policy.js";
import { equivalentsOf, requestResourceOf, ruleRequest, userOf } from "../policy/policy-inputs.js";
import { admissionRequestJson } from "../policy/request-variable.js";
import { type CompiledConditions, compileConditions, evaluateConditions } from "./match-conditions.js";
import type { Webhook } from "./webhook-configurations.js";
import { type RuleTarget, ruleMatches } from "./webhook-rules.js";

/** A webhook to call, and the version of the request's resource it matched. */
export interface Invocation {
  webhook: Webhook;
  kind: ServedKind;
}

export interface MatcherOptions {
  api: ResourceApi;
  environment: () => PolicyEnvironment;
  authorizer: CelAuthorizer;
}

function isEmptySelector(selector: LabelSelectorObject | undefined): boolean {
  return (
    selector === undefined ||
    ((selector.matchLabels === undefined || Object.keys(selector.matchLabels).length === 0) &&
      (selector.matchExpressions === undefined || selector.matchExpressions.length === 0))
  );
}

function labelsOf(obj: KubeObject | undefined): Labels {
  return ((obj?.metadata as { labels?: Labels } | undefined)?.labels ?? {}) as Labels;
}

/** A selector kube cannot parse fails the request with a 500, as kube's LabelSelectorAsSelector error does. */
function selects(selector: LabelSelectorObject, labels: Labels): boolean {
  const parsed = labelSelectorFromObject(selector);
  if (!parsed.ok)
    throw new StatusError(500, "InternalError", `Internal error occurred: ${parsed.error ?? "invalid selector"}`);
  return parsed.selector.matches(labels);
}

/** One request's matching: what it looks up (its namespace's labels, compiled conditions) it keeps. */
export class RequestMatcher {
  #namespaceLabels: Promise<Labels | StatusError> | undefined;
  #equivalents: ServedKind[] | undefined;

  constructor(
    private readonly options: MatcherOptions,
    private readonly compiled: Map<string, CompiledConditions>,
    private readonly a: AdmissionAttributes,
  ) {}

  /** The request's resource at its other served versions, looked up when a webhook first needs them. */
  #equivalentKinds(): ServedKind[] {
    this.#equivalents ??= equivalentsOf(this.options.api, this.a.kind);
    return this.#equivalents;
  }

  #labelsOfNamespace(): Promise<Labels | StatusError> {
    this.#namespaceLabels ??= (async () => {
      const { a } = this;
      const name = isNamespaceRequest(a) ? a.name : (a.namespace ?? "");
      try {
        return labelsOf((await this.options.api.get({ kind: namespaces, name })).object);
      } catch (error) {
        if (error instanceof StatusError && error.code === 404) return error;
        throw error;
      }
    })();
    return this.#namespaceLabels;
  }

  /** kube's namespace matcher: true, false, or the error it met (a missing namespace's 404). */
  async #namespaceMatches(selector: LabelSelectorObject | undefined): Promise<boolean | StatusError> {
    const { a } = this;
    const ownNamespace = isNamespaceRequest(a);
    if ((a.namespace ?? "") === "" && !ownNamespace) return true;
    if (isEmptySelector(selector)) return true;
    if (ownNamespace && a.subresource === undefined && (a.operation === "CREATE" || a.operation === "UPDATE")) {
      return selects(selector as LabelSelectorObject, labelsOf(a.object));
    }
    const labels = await this.#labelsOfNamespace();
    if (labels instanceof StatusError) return labels;
    return selects(selector as LabelSelectorObject, labels);
  }

  #objectMatches(selector: LabelSelectorObject | undefined): boolean {
    if (isEmptySelector(selector)) return true;
    const { a } = this;
    const s = selector as LabelSelectorObject;
    return (
      (a.object !== undefined && selects(s, labelsOf(a.object))) ||
      (a.oldObject !== undefined && selects(s, labelsOf(a.oldObject)))
    );
  }

  #target(kind: ServedKind): RuleTarget {
    return {
      operation: this.a.operation,
      group: kind.group,
      version: kind.version,
      resource: kind.resource.plural,
      subresource: this.a.subresource ?? "",
      namespace: this.a.namespace ?? "",
    };
  }

  /** The invocation, undefined when the webhook does not apply; throws the StatusError kube answers with. */
  async shouldCall(webhook: Webhook): Promise<Invocation | undefined> {
    const { spec } = webhook;
    const namespaceMatch = await this.#namespaceMatches(spec.namespaceSelector);
    if (namespaceMatch === false) return undefined;
    if (!this.#objectMatches(spec.objectSelector)) return undefined;
    const rules = spec.rules ?? [];
    const own = this.a.kind;
    let kind: ServedKind | undefined = rules.some((rule) => ruleMatches(rule, this.#target(own))) ? own : undefined;
    if (kind === undefined && spec.matchPolicy === "Equivalent") {
      // Earlier rules first, each against every equivalent version.
      for (const rule of rules) {
        kind = this.#equivalentKinds().find((candidate) => ruleMatches(rule, this.#target(candidate)));
        if (kind !== undefined) break;
      }
    }
    if (kind === undefined) return undefined;
    if (namespaceMatch instanceof StatusError) throw namespaceMatch;
    const conditions = spec.matchConditions ?? [];
    if (conditions.length > 0 && !(await this.#conditionsMatch(webhook, kind))) return undefined;
    return { webhook, kind };
  }

  async #conditionsMatch(webhook: Webhook, kind: ServedKind): Promise<boolean> {
    const key = `${webhook.generation}/${webhook.uid}`;
    let compiled = this.compiled.get(key);
    if (compiled === undefined) {
      compiled = compileConditions(webhook.spec.matchConditions ?? [], this.options.environment());
      this.compiled.set(key, compiled);
    }
    const { a } = this;
    const user = userOf(a);
    const authorizer = newAuthorizerValue(this.options.authorizer, user);
    const result = evaluateConditions(compiled, {
      object: (await versionedObject(a.kind, a.object, kind.version)) ?? null,
      oldObject: (await versionedObject(a.kind, a.oldObject, kind.version)) ?? null,
      request: admissionRequestJson({
        operation: a.operation,
        request: ruleRequest(a, a.kind),
        matched: ruleRequest(a, kind),
        namespace: a.namespace ?? "",
        user,
        dryRun: a.dryRun,
        options: admissionOptions(a),
      }),
      authorizer,
      requestResource: requestResourceOf(authorizer, a),
    });
    if ("error" in result) {
      if (webhook.spec.failurePolicy === "Ignore") return false;
      throw forbidden(groupResource(a.kind), a.name, result.error);
    }
    return result.matches;
  }
}

/** `obj` (at the request's version) at `version`. */
export async function versionedObject(
  kind: ServedKind,
  obj: KubeObject | undefined,
  version: string,
): Promise<KubeObject | undefined> {
  if (obj === undefined) return undefined;
  return version === kind.version ? obj : convertTo(kind, obj, version);
}
