// kube's service account controller: every active namespace has a ServiceAccount named `default`; it is
// created when the namespace appears and again whenever it is deleted.

import { namespaceTerminatingCause } from "../admission/namespace-lifecycle.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { activeNamespace } from "./active-namespace.js";
import { hasStatusCause, statusCode, statusReason } from "./api-errors.js";
import type { ControllerContext } from "./controller-context.js";
import { namespaces, serviceAccounts } from "./core-kinds.js";
import { followObjects } from "./follow-objects.js";
import { WorkQueue } from "./work-queue.js";

const defaultServiceAccount = "default";

export class ServiceAccountController {
  private readonly queue: WorkQueue<string>;

  constructor(
    private readonly api: ResourceApi,
    private readonly options: ControllerContext,
  ) {
    this.queue = new WorkQueue((namespace) => this.sync(namespace), {
      name: "service account controller",
      log: options.log,
    });
  }

  async run(): Promise<void> {
    const follow = { ...this.options, name: "service account controller" };
    await Promise.all([
      followObjects(
        this.api,
        { kind: namespaces },
        (event) => {
          if (event.type !== "DELETED") this.queue.add(String((event.object.metadata as { name: string }).name));
        },
        follow,
      ),
      followObjects(
        this.api,
        { kind: serviceAccounts },
        (event) => {
          if (event.type === "DELETED")
            this.queue.add(String((event.object.metadata as { namespace: string }).namespace));
        },
        { ...follow, query: { fieldSelector: `metadata.name=${defaultServiceAccount}` } },
      ),
    ]);
    await this.queue.stop();
  }

  private async sync(namespace: string): Promise<undefined> {
    if (!(await activeNamespace(this.api, namespace))) return undefined;
    try {
      await this.api.get({ kind: serviceAccounts, namespace, name: defaultServiceAccount });
      return undefined;
    } catch (error) {
      if (statusCode(error) !== 404) throw error;
    }
    try {
      await this.api.create(
        { kind: serviceAccounts, namespace },
        { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: defaultServiceAccount, namespace } },
      );
    } catch (error) {
      // Another writer was first, or the namespace started terminating meanwhile.
      if (statusReason(error) === "AlreadyExists" || hasStatusCause(error, namespaceTerminatingCause)) return undefined;
      throw error;
    }
    return undefined;
  }
}
