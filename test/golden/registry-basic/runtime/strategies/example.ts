// The strategy module the golden schema names, so the generated import typechecks.
import type { Strategy } from "../../../../../runtime/registry/strategy.js";

export const strategy: Strategy = {};
