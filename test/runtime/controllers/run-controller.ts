// One controller under test over a harness with the system namespaces only: started before each test,
// stopped after it, with the failures it logged expected to be none.
import { afterEach, beforeEach, expect } from "vitest";
import type { ControllerContext } from "../../../runtime/controllers/controller-context.js";
import type { ResourceApi } from "../../../runtime/resources/resource-api.js";
import { type Harness, startHarness } from "./controller-harness.js";

export function runControllerPerTest(
  create: (api: ResourceApi, context: ControllerContext) => { run(): Promise<void> },
): { readonly harness: Harness } {
  const state: { harness?: Harness; abort?: AbortController; running?: Promise<void>; errors: unknown[] } = {
    errors: [],
  };
  beforeEach(async () => {
    state.harness = await startHarness({
      enabled: { garbageCollector: false, namespaces: false, serviceAccounts: false, rootCa: false },
    });
    state.abort = new AbortController();
    state.errors = [];
    const errors = state.errors;
    state.running = create(state.harness.api, {
      signal: state.abort.signal,
      log: (message, error) => errors.push({ message, error }),
    }).run();
  });
  afterEach(async () => {
    state.abort?.abort();
    await state.running;
    await state.harness?.close();
    expect(state.errors).toEqual([]);
  });
  return {
    get harness(): Harness {
      if (state.harness === undefined) throw new Error("the harness runs inside tests only");
      return state.harness;
    },
  };
}
