// apiserver_authorization_decisions_total: each configured authorizer's terminal decisions (allow, deny) by
// its type and name, as kube wraps every authorizer of the configuration; "no opinion" passes unrecorded.
import type { Attributes, Authorizer, Decision, SubjectRules } from "../access/authorizer.js";
import type { UserInfo } from "../access/user-info.js";
import type { MetricRegistry } from "../metrics/metric-registry.js";

type DecisionCounter = ReturnType<MetricRegistry["counter"]>;

const perRegistry = new WeakMap<MetricRegistry, DecisionCounter>();

/** The family, made once per server registry. */
export function authorizationDecisions(metrics: MetricRegistry): DecisionCounter {
  let counter = perRegistry.get(metrics);
  if (counter === undefined) {
    counter = metrics.counter({
      name: "apiserver_authorization_decisions_total",
      help: "Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision.",
      labelNames: ["type", "name", "decision"],
      stabilityLevel: "ALPHA",
    });
    perRegistry.set(metrics, counter);
  }
  return counter;
}

export class InstrumentedAuthorizer implements Authorizer {
  readonly #delegate: Authorizer;
  readonly #allowed: { inc(): void };
  readonly #denied: { inc(): void };

  constructor(delegate: Authorizer, type: string, name: string, metrics: MetricRegistry) {
    this.#delegate = delegate;
    const decisions = authorizationDecisions(metrics);
    // Bound once: the labels of an authorizer never change.
    this.#allowed = decisions.labels({ type, name, decision: "allowed" });
    this.#denied = decisions.labels({ type, name, decision: "denied" });
  }

  authorize(attributes: Attributes): Decision | Promise<Decision> {
    const answer = this.#delegate.authorize(attributes);
    if (answer instanceof Promise) return answer.then((decision) => this.#record(decision));
    return this.#record(answer);
  }

  rulesFor(user: UserInfo, namespace: string): SubjectRules | Promise<SubjectRules> {
    return this.#delegate.rulesFor(user, namespace);
  }

  #record(decision: Decision): Decision {
    if (decision.decision === "allow") this.#allowed.inc();
    else if (decision.decision === "deny") this.#denied.inc();
    return decision;
  }
}
