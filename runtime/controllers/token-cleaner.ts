// kube's tokencleaner (kube-controller-manager `token-cleaner-controller`, alias `tokencleaner`): deletes
// bootstrap token Secrets in kube-system once their `expiration` has passed (an unparseable one counts as
// passed), guarded by the Secret's uid. A token that has not expired yet is looked at again when it does.
import {
  bootstrapTokenNamespace,
  bootstrapTokenSecretType,
  expirationOf,
  isBootstrapTokenSecret,
  uidOf,
} from "../authn/bootstrap-token-secret.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { statusCode } from "./api-errors.js";
import type { ControllerContext } from "./controller-context.js";
import { secrets } from "./core-kinds.js";
import { followObjects } from "./follow-objects.js";
import { WorkQueue } from "./work-queue.js";

/** setTimeout's longest delay; a later expiry is looked at again after it and rescheduled. */
const maxTimerMs = 2 ** 31 - 1;

export interface TokenCleanerOptions {
  now?: () => Date;
}

export class TokenCleaner {
  private readonly queue: WorkQueue<string>;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly now: () => Date;

  constructor(
    private readonly api: ResourceApi,
    private readonly context: ControllerContext,
    options: TokenCleanerOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.queue = new WorkQueue((name) => this.sync(name), { name: "token cleaner", log: context.log });
  }

  async run(): Promise<void> {
    await followObjects(
      this.api,
      { kind: secrets, namespace: bootstrapTokenNamespace },
      (event) => {
        if (event.type !== "DELETED") this.queue.add(String((event.object.metadata as { name?: string }).name));
      },
      {
        ...this.context,
        name: "token cleaner",
        query: { fieldSelector: `type=${bootstrapTokenSecretType}` },
      },
    );
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await this.queue.stop();
  }

  private async sync(name: string): Promise<undefined> {
    const target = { kind: secrets, namespace: bootstrapTokenNamespace, name };
    let secret: Record<string, unknown>;
    try {
      secret = (await this.api.get(target)).object;
    } catch (error) {
      if (statusCode(error) === 404) return undefined;
      throw error;
    }
    if (!isBootstrapTokenSecret(secret)) return undefined;
    const expiration = expirationOf(secret, this.now());
    if (expiration.expired) {
      const uid = uidOf(secret);
      try {
        await this.api.delete(target, uid === undefined ? {} : { preconditions: { uid } });
      } catch (error) {
        // Gone already, or the uid precondition failed: a new Secret of that name is looked at on its own.
        const code = statusCode(error);
        if (code !== 404 && code !== 409) throw error;
      }
    } else if (expiration.remainingMs !== undefined) {
      this.recheckAfter(name, expiration.remainingMs);
    }
    return undefined;
  }

  private recheckAfter(name: string, delayMs: number): void {
    if (this.context.signal.aborted) return;
    clearTimeout(this.timers.get(name));
    const timer = setTimeout(
      () => {
        this.timers.delete(name);
        this.queue.add(name);
      },
      Math.min(delayMs, maxTimerMs),
    );
    timer.unref();
    this.timers.set(name, timer);
  }
}
