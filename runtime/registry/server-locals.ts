// Per-server facilities the plugins layer defines and the write path hands to strategy hooks (a Service's
// IP and port allocators): one instance per server, found by a key object, so two servers in one process
// never share them and the layers below never name them.

/** Names one facility and its type; the module that defines the facility exports its key. */
export interface ServerLocalKey<T> {
  readonly name: string;
  /** Carries T for the type checker only. */
  readonly type?: (value: T) => T;
}

export class ServerLocals {
  readonly #values = new Map<ServerLocalKey<unknown>, unknown>();

  set<T>(key: ServerLocalKey<T>, value: T): void {
    this.#values.set(key as ServerLocalKey<unknown>, value);
  }

  get<T>(key: ServerLocalKey<T>): T | undefined {
    return this.#values.get(key as ServerLocalKey<unknown>) as T | undefined;
  }
}
