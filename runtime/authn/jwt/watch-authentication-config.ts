// kube-apiserver re-reads `--authentication-config` when the file changes (and at least every minute):
// an unchanged text is ignored; a text that does not decode or validate is reported once and not retried
// until the file changes again; the `anonymous` section may not change from the file the server started
// with; a valid configuration is handed to `onChange`, and a failure there (issuers not reachable in
// time) is retried on the next check.
import { watch } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { forbidden } from "../../errors/field-error.js";
import { formatFieldErrors } from "../../errors/format-field-error.js";
import {
  type AuthenticationConfigFile,
  type AuthenticationConfigOptions,
  parseAuthenticationConfig,
} from "./authentication-config.js";
import type { AnonymousAuthConfig, AuthenticationConfiguration } from "./authentication-configuration.js";
import { validateAuthenticationConfiguration } from "./validate-authentication-config.js";

export interface WatchAuthenticationConfigOptions extends AuthenticationConfigOptions {
  /** How often the file is read even without a change notification (kube: 1 min). */
  intervalMs?: number;
  /** Reports a configuration that was not applied (kube logs these). */
  onError?: (error: Error) => void;
}

export interface AuthenticationConfigWatch {
  close(): void;
}

function sameAnonymous(a: AnonymousAuthConfig | undefined, b: AnonymousAuthConfig | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function watchAuthenticationConfig(
  path: string,
  initial: AuthenticationConfigFile,
  onChange: (configuration: AuthenticationConfiguration) => Promise<void> | void,
  options: WatchAuthenticationConfigOptions = {},
): AuthenticationConfigWatch {
  let tracked = initial.data;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;
  const report = (message: string) => options.onError?.(new Error(message));

  async function check(): Promise<void> {
    let data: string;
    try {
      data = await readFile(path, "utf8");
    } catch (error) {
      // The file may be in the middle of being replaced: try again on the next check.
      return report(`failed to read authentication config file: ${(error as Error).message}`);
    }
    if (data === tracked || closed) return;
    let configuration: AuthenticationConfiguration;
    try {
      configuration = parseAuthenticationConfig(data);
    } catch (error) {
      tracked = data;
      return report(`failed to load authentication config: ${(error as Error).message}`);
    }
    const errors = validateAuthenticationConfiguration(configuration, options.disallowedIssuers ?? []);
    if (!sameAnonymous(initial.configuration.anonymous, configuration.anonymous)) {
      errors.push(forbidden("anonymous", "changed from initial configuration file"));
    }
    if (errors.length > 0) {
      tracked = data;
      return report(`failed to validate authentication config: ${formatFieldErrors(errors)}`);
    }
    try {
      await onChange(configuration);
      tracked = data;
    } catch (error) {
      report(`failed to update authentication config: ${(error as Error).message}`);
    }
  }

  /** One check at a time; a notification during a check runs one more afterwards. */
  function trigger(): void {
    if (closed) return;
    if (running !== undefined) {
      again = true;
      return;
    }
    running = check().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        trigger();
      }
    });
  }

  // Watching the directory also sees the file being replaced by a rename, as configuration tools do.
  const watcher = watch(dirname(path), (_event, name) => {
    if (name === null || name === basename(path)) trigger();
  });
  watcher.on("error", (error) => report(`watching authentication config file: ${error.message}`));
  watcher.unref();
  const timer = setInterval(trigger, options.intervalMs ?? 60_000);
  timer.unref();
  return {
    close() {
      closed = true;
      watcher.close();
      clearInterval(timer);
    },
  };
}
