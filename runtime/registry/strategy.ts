// Behaviour a schema cannot declare, kept in a small module per concern under runtime/strategies/ and named
// by schemas (`strategy: <module>` on a kind). The KindRegistry hands each served kind its strategy, so the
// runtime calls hooks without ever testing for a kind by name. Every hook sees the object in the version of
// the kind record that names the strategy (the request's version). These hooks work on objects alone; hooks
// that answer requests (review kinds, subresource creates) are the strategies layer's RequestHooks.
import type { UserInfo } from "../access/user-info.js";
import type { FieldError } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { ServerLocalKey } from "./server-locals.js";

/** What a write's claim, release and validate hooks see besides the object: the server's own settings and facilities. */
export interface WriteEnvironment {
  readonly dryRun: boolean;
  /** This server's instance of a facility the plugins layer defines; undefined when the server has none. */
  local<T>(key: ServerLocalKey<T>): T | undefined;
}

/** What a write claimed outside its object: kept once the object is stored, undone when the write fails. */
export interface WriteClaims {
  commit(): Promise<void>;
  revert(): Promise<void>;
}

export interface Strategy {
  /** Defaults that depend on other values (a container's pull policy from its image tag). */
  default?(obj: KubeObject): void;
  /**
   * After the generic preparation of a create (system metadata set, status dropped when the kind has a
   * status subresource): initial values the server owns (a pod's Pending phase). `user` is the requesting
   * user; undefined for writes of the in-server controllers.
   */
  prepareForCreate?(obj: KubeObject, user?: UserInfo): void;
  /**
   * After the generic preparation of an update of the main resource (`subresource` undefined; status
   * kept from `old`) or of a subresource (`status`: everything but status kept from `old`).
   */
  prepareForUpdate?(obj: KubeObject, old: KubeObject, subresource?: string): void;
  /**
   * Subresources besides status that write the object's status as status does, the stored spec kept
   * (kube's certificatesigningrequests/approval); prepareForUpdate then sees the status as sent.
   */
  statusSubresources?: readonly string[];
  /**
   * Claims what the object needs beyond itself (a Service's cluster IPs and node ports), after the kind's
   * preparation and before validation, writing what it claimed into the object; throws a StatusError to
   * refuse the write. `old` is the stored object on an update of the main resource. The write commits the
   * claims once stored and reverts them when anything after the claim fails (dry runs included).
   */
  claim?(obj: KubeObject, old: KubeObject | undefined, env: WriteEnvironment): Promise<WriteClaims | undefined>;
  /** Frees what a deleted object held, once it is gone from the store. */
  release?(obj: KubeObject, env: WriteEnvironment): Promise<void>;
  /**
   * Checks beyond the schema's structural rules; returns field errors, never throws them. `env` carries the
   * server-wide settings some rules read (`--allow-privileged`); absent, they have kube's defaults.
   */
  validate?(obj: KubeObject, old?: KubeObject, subresource?: string, env?: WriteEnvironment): FieldError[];
  /** The kind's ValidateNameFunc when no schema name format says it (IPAddress names are IP addresses). */
  validateName?(name: string, prefix: boolean): string[];
  /** Non-fatal remarks sent back as `Warning` headers (deprecated fields, odd values). */
  warnings?(obj: KubeObject, old?: KubeObject): string[];
  /** Remarks made only when the object is created (kube's WarningsOnCreate where it differs from update's). */
  warningsOnCreate?(obj: KubeObject): string[];
  /**
   * The kind keeps metadata.generation (1 on create, moved on by spec changes). Default: kinds with a
   * status subresource, where spec and status are written apart.
   */
  tracksGeneration?: boolean;
  /** false: a PUT must carry a resourceVersion (kube's AllowUnconditionalUpdate, false for leases). */
  allowUnconditionalUpdate?: boolean;
  /** A PUT to a name that does not exist creates it (kube's AllowCreateOnUpdate). */
  allowCreateOnUpdate?: boolean;
  /**
   * Seconds a delete waits before the object goes (pods on a node); undefined deletes at once.
   * `requested` is DeleteOptions.gracePeriodSeconds.
   */
  gracePeriodSeconds?(obj: KubeObject, requested: number | undefined): number | undefined;
  /** Why a delete of this name is refused (403) before anything is read (kube's system priority classes). */
  deleteForbidden?(name: string): string | undefined;
  /** What the first delete changes besides deletionTimestamp (a namespace's Terminating phase). */
  prepareForDelete?(obj: KubeObject): void;
  /** A deleting object stays while this holds, even without metadata.finalizers (a namespace's spec.finalizers). */
  deletionHeld?(obj: KubeObject): boolean;
  /** Metadata is checked by apimachinery's rules only, as the apiextensions server checks it (any qualified finalizer). */
  genericObjectMeta?: boolean;
  /** A delete answers with the deleted object instead of a success Status. */
  returnDeletedObject?: boolean;
  /** Propagation when DeleteOptions name none: kube orphans dependents of a few legacy kinds. */
  defaultPropagationPolicy?: "Orphan" | "Background";
}
