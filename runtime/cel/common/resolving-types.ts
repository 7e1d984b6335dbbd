// An environment's named types when a library resolves names on demand: the listed types first, then
// each resolver in library order. Iteration sees only the listed types, as the names resolved are open-ended.
import type { CelType } from "./cel-types.js";

export class ResolvingTypes extends Map<string, CelType> {
  constructor(
    listed: ReadonlyMap<string, CelType>,
    private readonly resolvers: readonly ((name: string) => CelType | undefined)[],
  ) {
    super(listed);
  }

  override get(name: string): CelType | undefined {
    const listed = super.get(name);
    if (listed !== undefined) return listed;
    for (const resolve of this.resolvers) {
      const type = resolve(name);
      if (type !== undefined) return type;
    }
    return undefined;
  }

  override has(name: string): boolean {
    return this.get(name) !== undefined;
  }
}
