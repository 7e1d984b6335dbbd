// What a server with the default runtime config serves, each kind with its strategy: for tests that build a
// ResourceApi without a server.
import { strategies } from "../../generated/strategies.js";
import { KindRegistry } from "../../runtime/registry/kind-registry.js";

export function builtinKinds(): KindRegistry {
  return new KindRegistry({ strategies });
}
