// The strategy type the generated strategies table names, so it typechecks against the real one.
export type { KindStrategy } from "../../../../../runtime/strategies/hook-request.js";
