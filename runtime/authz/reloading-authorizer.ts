// The authorizer behind `--authorization-config`: it holds the chain built from the file and rebuilds it
// when the file changes (watched through its directory, so that a file replaced by renaming is seen) and
// every minute, as kube-apiserver does. A file that does not read, parse, validate or build leaves the
// current chain in place and is logged; unchanged text or an unchanged configuration is ignored.
import { type FSWatcher, readFileSync, watch } from "node:fs";
import { basename, dirname } from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { Attributes, Authorizer, Decision, SubjectRules } from "../access/authorizer.js";
import type { UserInfo } from "../access/user-info.js";
import {
  type AuthorizationConfiguration,
  type AuthorizerType,
  parseAuthorizationConfiguration,
} from "./authorization-config.js";

export interface ReloadingAuthorizerOptions {
  path: string;
  /** The text the first configuration was read from, and that configuration. */
  data: string;
  configuration: AuthorizationConfiguration;
  /** Builds a chain; throws when the configuration cannot be served. */
  build: (configuration: AuthorizationConfiguration) => Authorizer;
  log: (message: string, error?: unknown) => void;
  /** How often the file is read even without a change event; kube's minute by default. */
  intervalMs?: number;
}

export class ReloadingAuthorizer implements Authorizer {
  private current: Authorizer;
  private lastData: string;
  private lastConfiguration: AuthorizationConfiguration;
  /** kube requires every non-webhook type of the first configuration to stay in the file. */
  private readonly requiredTypes: ReadonlySet<AuthorizerType>;
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ReloadingAuthorizerOptions) {
    this.current = options.build(options.configuration);
    this.lastData = options.data;
    this.lastConfiguration = options.configuration;
    this.requiredTypes = new Set(options.configuration.authorizers.map((a) => a.type).filter((t) => t !== "Webhook"));
  }

  authorize(attributes: Attributes): Decision | Promise<Decision> {
    return this.current.authorize(attributes);
  }

  rulesFor(user: UserInfo, namespace: string): SubjectRules | Promise<SubjectRules> {
    return this.current.rulesFor(user, namespace);
  }

  start(): void {
    if (this.timer !== undefined) return;
    const name = basename(this.options.path);
    try {
      this.watcher = watch(dirname(this.options.path), (_event, file) => {
        if (file === null || file === name) this.checkFile();
      });
      this.watcher.on("error", (error) => this.options.log("watching authorization config file", error));
    } catch (error) {
      this.options.log("watching authorization config file", error);
    }
    this.timer = setInterval(() => this.checkFile(), this.options.intervalMs ?? 60_000);
    this.timer.unref();
  }

  stop(): void {
    this.watcher?.close();
    this.watcher = undefined;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Reads the file now; returns whether the chain was replaced. */
  checkFile(): boolean {
    let data: string;
    try {
      data = readFileSync(this.options.path, "utf8");
    } catch (error) {
      this.options.log("reloading authorization config", error);
      return false;
    }
    if (data === this.lastData) return false;
    this.lastData = data;
    let configuration: AuthorizationConfiguration;
    let chain: Authorizer;
    try {
      configuration = parseAuthorizationConfiguration(data, this.requiredTypes);
      if (isDeepStrictEqual(configuration, this.lastConfiguration)) return false;
      chain = this.options.build(configuration);
    } catch (error) {
      this.options.log("reloading authorization config", error);
      return false;
    }
    this.lastConfiguration = configuration;
    this.current = chain;
    this.options.log("reloaded authz config");
    return true;
  }
}
