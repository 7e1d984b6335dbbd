// kube-controller-manager's validatingadmissionpolicy-status controller: every ValidatingAdmissionPolicy
// whose generation is newer than `status.observedGeneration` is type-checked (runtime/admission/policy/
// type-checking.ts) and gets, by server-side apply of its status as `validatingadmissionpolicy-status`
// (forced), `observedGeneration` and `typeChecking.expressionWarnings` (left out when there are none, so
// `typeChecking: {}`). kube sets no conditions here.

import type { PolicySpec } from "../admission/policy/compile-policy.js";
import { PolicyTypeChecker } from "../admission/policy/type-checking.js";
import type { KubeObject } from "../object/kube-object.js";
import type { ServedKind } from "../registry/served-kind.js";
import { applyIntent } from "../resources/field-ownership.js";
import type { ResourceApi, Target } from "../resources/resource-api.js";
import { statusCode } from "./api-errors.js";
import type { ControllerContext } from "./controller-context.js";
import { followObjects } from "./follow-objects.js";
import { WorkQueue } from "./work-queue.js";

const name = "validatingadmissionpolicy status controller";
const fieldManager = { manager: "validatingadmissionpolicy-status", force: true };
/** Applies that lose a race with another write are tried again at once this many times, then requeued. */
const attempts = 5;

interface PolicyShape {
  metadata?: { name?: string; generation?: number };
  spec?: PolicySpec;
  status?: { observedGeneration?: number };
}

export class PolicyTypeCheckingController {
  private readonly queue: WorkQueue<string>;
  private readonly policyKind: ServedKind | undefined;
  private readonly checker: PolicyTypeChecker;

  constructor(
    private readonly api: ResourceApi,
    private readonly options: ControllerContext,
  ) {
    this.policyKind = api.kinds.kindOf("admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy");
    this.checker = PolicyTypeChecker.for(api);
    this.queue = new WorkQueue((policy) => this.sync(policy), { name, log: options.log });
  }

  async run(): Promise<void> {
    // A server without admissionregistration.k8s.io/v1 has no policies to check.
    if (this.policyKind === undefined) return;
    await followObjects(
      this.api,
      { kind: this.policyKind },
      (event) => {
        const policyName = (event.object as PolicyShape).metadata?.name;
        if (event.type !== "DELETED" && policyName !== undefined) this.queue.add(policyName);
      },
      { ...this.options, name },
    );
    await this.queue.stop();
  }

  private async sync(policyName: string): Promise<undefined> {
    const kind = this.policyKind as ServedKind;
    const target: Target = { kind, name: policyName, subresource: "status" };
    for (let attempt = 1; ; attempt++) {
      let live: KubeObject;
      try {
        live = (await this.api.get({ kind, name: policyName })).object;
      } catch (error) {
        // Gone: being deleted, nothing to report.
        if (statusCode(error) === 404) return undefined;
        throw error;
      }
      const policy = live as PolicyShape;
      const generation = policy.metadata?.generation ?? 0;
      if (generation <= (policy.status?.observedGeneration ?? 0)) return undefined;
      const warnings = await this.checker.check(policy.spec ?? {});
      const config: KubeObject = {
        apiVersion: `${kind.group}/${kind.version}`,
        kind: kind.kind,
        metadata: { name: policyName },
        status: {
          observedGeneration: generation,
          typeChecking: warnings.length === 0 ? {} : { expressionWarnings: warnings },
        },
      };
      try {
        const intent = applyIntent(target, live, config, fieldManager, this.api.context.now());
        await this.api.update(target, intent, { applied: true });
        return undefined;
      } catch (error) {
        if (statusCode(error) === 404) return undefined;
        if (statusCode(error) !== 409 || attempt === attempts) throw error;
      }
    }
  }
}
