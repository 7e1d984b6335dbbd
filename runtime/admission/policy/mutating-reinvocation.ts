// kube's policy reinvocation context for mutating policies, kept in the request's reinvocation state: which
// IfNeeded invocations ran, which must run again because a later change followed them, and the object
// as the plugin last left it (a change by another plugin since then asks for the reinvocations too).
import { isDeepStrictEqual } from "node:util";
import type { Reinvocation } from "../admission.js";

export class PolicyReinvocation {
  private lastOutput: unknown;
  private invokedReinvocable = new Set<string>();
  private readonly reinvoke = new Set<string>();

  /** The plugin's context for this request, made on its first run. */
  static of(reinvocation: Reinvocation, pluginName: string): PolicyReinvocation {
    let context = reinvocation.state.get(pluginName);
    if (!(context instanceof PolicyReinvocation)) {
      context = new PolicyReinvocation();
      reinvocation.state.set(pluginName, context);
    }
    return context as PolicyReinvocation;
  }

  shouldReinvoke(key: string): boolean {
    return this.reinvoke.has(key);
  }

  outputChangedSinceLastInvocation(object: unknown): boolean {
    return !isDeepStrictEqual(this.lastOutput, object);
  }

  setLastOutput(object: unknown): void {
    this.lastOutput = object === undefined ? undefined : structuredClone(object);
  }

  addInvokedReinvocable(key: string): void {
    this.invokedReinvocable.add(key);
  }

  /** Every IfNeeded invocation that ran so far must run again. */
  requireReinvokingPreviouslyInvoked(): void {
    for (const key of this.invokedReinvocable) this.reinvoke.add(key);
    this.invokedReinvocable = new Set();
  }
}
