// The requests a graceful shutdown waits for (kube-apiserver's WithWaitGroup): every request that is not
// long-running counts while it is served; once draining begins, new ones are refused with a 503 that tells
// the client to retry, and `drained` settles when the last counted request is done.

export class RequestWaitGroup {
  private active = 0;
  private draining = false;
  private idle: (() => void) | undefined;

  /** Counts a request in; false once draining has begun. */
  add(): boolean {
    if (this.draining) return false;
    this.active++;
    return true;
  }

  done(): void {
    this.active--;
    if (this.active === 0) this.idle?.();
  }

  get size(): number {
    return this.active;
  }

  /** Refuses new requests from now on and resolves once the counted ones are done. */
  drain(): Promise<void> {
    this.draining = true;
    if (this.active === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.idle = resolve;
    });
  }
}
