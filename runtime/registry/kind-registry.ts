// What one server serves: the built-in group/versions its runtime config enables (from the generated tables,
// each kind with the strategy its schema names) and the custom resources registered while it runs. Request
// routing, ResourceApi, discovery, the authorizers and the controllers find kinds here and nowhere else;
// `revision` moves on every change so derived documents know to rebuild.
import { servedGroupVersions } from "../../generated/discovery/served.js";
import { kinds } from "../../generated/registry.js";
import { routes as builtinRoutes } from "../../generated/routes.js";
import type { ServedGroupVersion, ServedResource } from "../discovery/served.js";
import { createRouteMatcher, type RouteMatch } from "../routing/match-route.js";
import { resourceRoutes } from "../routing/resource-routes.js";
import { builtinSchema, builtinVersionsOf } from "./builtin-schema.js";
import { builtinStorageRecords, storageRecordOf } from "./kinds.js";
import { byGroupVersionKind, byGroupVersionResource } from "./lookup.js";
import { isEnabled, isResourceEnabled, type RuntimeConfig, resourcesTurnedOn } from "./runtime-config.js";
import type { ResourceKindRecord, ServedKind } from "./served-kind.js";
import type { Strategy } from "./strategy.js";

export interface KindRegistryOptions {
  /** `--runtime-config`: which built-in group/versions are served; default those enabled by default. */
  runtimeConfig?: RuntimeConfig;
  /** The strategy modules by the names schemas give them (generated/strategies.ts). */
  strategies?: Readonly<Record<string, Strategy>>;
}

/** One served version of a custom resource. */
export interface CustomVersion {
  kind: ServedKind;
  /** Its discovery entry. */
  served: ServedResource;
  /** Discovery order of the version within its group (lower first). */
  versionPriority: number;
}

/** Discovery order of groups defined by custom resources: after every built-in group, as kube orders them. */
const customGroupPriority = 1000;

type Matcher = (path: string) => RouteMatch | undefined;

function gvrKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

/**
 * Route matchers of the built-in routes by the group/versions served. A matcher is a pure function of the
 * generated routes, so servers serving the same group/versions share one rather than each building it.
 */
const builtinMatchers = new Map<string, Matcher>();

function builtinMatcher(served: ReadonlySet<string>, resourcesOff: ReadonlySet<string>): Matcher {
  const key = `${[...served].sort().join(" ")} - ${[...resourcesOff].sort().join(" ")}`;
  let matcher = builtinMatchers.get(key);
  if (matcher === undefined) {
    matcher = createRouteMatcher(
      builtinRoutes.filter(
        (r) => served.has(`${r.group}/${r.version}`) && !resourcesOff.has(gvrKey(r.group, r.version, r.resource)),
      ),
    );
    builtinMatchers.set(key, matcher);
  }
  return matcher;
}

export class KindRegistry {
  readonly #strategies: Readonly<Record<string, Strategy>>;
  /** Built-in kinds as served here, made once per record. */
  readonly #resolved = new Map<ResourceKindRecord, ServedKind>();
  readonly #builtin: ServedGroupVersion[];
  readonly #builtinKeys: Set<string>;
  /** Resources of served built-in group/versions the runtime config turns off (`group/version/resource`). */
  readonly #resourcesOff: Set<string>;
  /** Served built-in group/versions some of whose resources are off: discovery and OpenAPI list fewer. */
  readonly #narrowed: ServedGroupVersion[] = [];
  readonly #builtinMatcher: Matcher;
  readonly #builtinKinds = new Map<string, ServedKind | undefined>();
  /** Versions of each custom resource, keyed by the definition's name. */
  readonly #custom = new Map<string, CustomVersion[]>();
  #customByResource = new Map<string, ServedKind>();
  #customMatcher: Matcher | undefined;
  #listeners: (() => void)[] = [];
  #revision = 0;

  constructor(options: KindRegistryOptions = {}) {
    const config = options.runtimeConfig ?? {};
    this.#strategies = options.strategies ?? {};
    // As kube's resource config: a resource's own key wins over its version's; a version turned off but with
    // resources turned on is served with just those.
    this.#builtin = [];
    this.#resourcesOff = new Set();
    for (const gv of servedGroupVersions) {
      const versionOn = isEnabled(config, gv, gv.enabledByDefault);
      if (!versionOn && resourcesTurnedOn(config, gv).length === 0) continue;
      const on = (plural: string) => isResourceEnabled(config, { ...gv, resource: plural }, versionOn);
      const resources = gv.resources.filter((r) => on(r.plural));
      for (const r of gv.resources) if (!on(r.plural)) this.#resourcesOff.add(gvrKey(gv.group, gv.version, r.plural));
      if (resources.length === 0) continue;
      if (resources.length === gv.resources.length) this.#builtin.push(gv);
      else {
        const narrowed = { ...gv, resources };
        this.#builtin.push(narrowed);
        this.#narrowed.push(narrowed);
      }
    }
    this.#builtinKeys = new Set(this.#builtin.map((gv) => `${gv.group}/${gv.version}`));
    this.#builtinMatcher = builtinMatcher(this.#builtinKeys, this.#resourcesOff);
  }

  /** Counts changes: documents built from the registry are current while it stays the same. */
  get revision(): number {
    return this.#revision;
  }

  /** Built-in group/versions on by default that this server's runtime config turns off. */
  builtinTurnedOff(): ServedGroupVersion[] {
    return servedGroupVersions.filter((gv) => gv.enabledByDefault && !this.servesBuiltin(gv.group, gv.version));
  }

  /**
   * Served built-in group/versions with some resources off (--runtime-config `<group>/<version>/<resource>`):
   * their documents are built from what is served rather than taken from the generated ones.
   */
  builtinNarrowed(): ServedGroupVersion[] {
    return [...this.#narrowed];
  }

  /** Whether a built-in group/version is served by this server. */
  servesBuiltin(group: string, version: string): boolean {
    return this.#builtinKeys.has(`${group}/${version}`);
  }

  /** The route of a resource path, built-in routes first. */
  matchRoute(path: string): RouteMatch | undefined {
    return this.#builtinMatcher(path) ?? this.#matchCustom(path);
  }

  /** The served kind at a group/version/resource. */
  servedKind(group: string, version: string, resource: string): ServedKind | undefined {
    const key = gvrKey(group, version, resource);
    if (this.#builtinKeys.has(`${group}/${version}`) && !this.#resourcesOff.has(key)) {
      if (!this.#builtinKinds.has(key)) {
        const record = byGroupVersionResource(kinds, group, version, resource);
        this.#builtinKinds.set(key, record === undefined ? undefined : this.#served(record));
      }
      const builtin = this.#builtinKinds.get(key);
      if (builtin !== undefined) return builtin;
    }
    return this.#customByResource.get(key);
  }

  /** The served kind of a group/version/kind (owner references, admission policies' match resources). */
  kindOf(group: string, version: string, kind: string): ServedKind | undefined {
    const builtin = byGroupVersionKind(kinds, group, version, kind);
    if (
      builtin?.resource !== undefined &&
      this.servesBuiltin(group, version) &&
      !this.#resourcesOff.has(gvrKey(group, version, builtin.resource.plural))
    ) {
      return this.#served(builtin as ResourceKindRecord);
    }
    for (const k of this.#customByResource.values()) {
      if (k.group === group && k.version === version && k.kind === kind) return k;
    }
    return undefined;
  }

  /** Every stored resource this server serves, once each (built-in ones at a served version) and custom ones. */
  storedResources(): ServedKind[] {
    const custom = [...this.#custom.values()].map((versions) => this.storageKindOf(versions[0]?.kind as ServedKind));
    const builtin = builtinStorageRecords().flatMap((record) => this.#servedVersionOf(record) ?? []);
    return [...builtin, ...custom];
  }

  /**
   * A built-in stored resource at a version this server serves: its storage version when served, else the first
   * served one; undefined when the runtime config serves none (in-server code cannot reach its objects then).
   */
  #servedVersionOf(record: ResourceKindRecord): ServedKind | undefined {
    const plural = record.resource.plural;
    const atStorage = this.servedKind(record.group, record.version, plural);
    if (atStorage !== undefined) return atStorage;
    for (const gv of this.#builtin) {
      const served = gv.group === record.group ? this.servedKind(gv.group, gv.version, plural) : undefined;
      if (served !== undefined) return served;
    }
    return undefined;
  }

  /** The kind of the version objects of `kind`'s resource are stored in. */
  storageKindOf(kind: ServedKind): ServedKind {
    if (kind.custom !== undefined) return kind.custom.storage();
    const record = storageRecordOf(kind.group, kind.resource.plural);
    return record === undefined ? kind : this.#served(record);
  }

  /** Served group/versions in no particular order: built-in ones enabled here, then custom ones. */
  groupVersions(): ServedGroupVersion[] {
    const custom = new Map<string, ServedGroupVersion>();
    for (const versions of this.#custom.values()) {
      for (const { kind, served, versionPriority } of versions) {
        const key = `${kind.group}/${kind.version}`;
        let gv = custom.get(key);
        if (gv === undefined) {
          gv = {
            group: kind.group,
            version: kind.version,
            groupPriority: customGroupPriority,
            versionPriority,
            enabledByDefault: true,
            resources: [],
          };
          custom.set(key, gv);
        }
        gv.versionPriority = Math.min(gv.versionPriority, versionPriority);
        gv.resources.push(served);
      }
    }
    return [...this.#builtin, ...custom.values()];
  }

  /** Serves (or serves anew) the versions of one custom resource; an empty list stops serving it. */
  setCustom(definition: string, versions: CustomVersion[]): void {
    if (versions.length === 0) this.#custom.delete(definition);
    else this.#custom.set(definition, versions);
    this.#customByResource = new Map(
      [...this.#custom.values()]
        .flat()
        .map((v) => [gvrKey(v.kind.group, v.kind.version, v.kind.resource.plural), v.kind]),
    );
    this.#customMatcher = undefined;
    this.#revision++;
    for (const listener of this.#listeners) listener();
  }

  /** The versions registered for a definition. */
  custom(definition: string): readonly CustomVersion[] {
    return this.#custom.get(definition) ?? [];
  }

  /** Called after every change; returns the function that stops calling it. */
  onChange(listener: () => void): () => void {
    this.#listeners.push(listener);
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  /** A built-in record as this registry serves it: with its strategy. */
  #served(record: ResourceKindRecord): ServedKind {
    let served = this.#resolved.get(record);
    if (served === undefined) {
      const { strategy: name, ...rest } = record;
      const strategy = name === undefined ? undefined : this.#strategies[name];
      const schema = builtinSchema(record);
      const versions = builtinVersionsOf(record.group);
      served = strategy === undefined ? { ...rest, schema, versions } : { ...rest, strategy, schema, versions };
      this.#resolved.set(record, served);
    }
    return served;
  }

  #matchCustom(path: string): RouteMatch | undefined {
    if (this.#custom.size === 0) return undefined;
    this.#customMatcher ??= createRouteMatcher(
      [...this.#custom.values()].flat().flatMap(({ kind }) => resourceRoutes(kind, kind.resource)),
    );
    return this.#customMatcher(path);
  }
}
