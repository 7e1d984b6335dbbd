// A ResourceApi over a memory store holding the objects service account tokens name, a clock the tests
// move, and the issuer and authenticator built on both.
import type { KeyObject } from "node:crypto";
import { AuthenticationError } from "../../../../runtime/access/authenticator.js";
import { type CoreResource, coreKind } from "../../../../runtime/authn/service-account/core-objects.js";
import { generateSigningKey } from "../../../../runtime/authn/service-account/signing-keys.js";
import {
  ServiceAccountTokenAuthenticator,
  type ServiceAccountTokenAuthenticatorOptions,
} from "../../../../runtime/authn/service-account/token-authenticator.js";
import {
  ServiceAccountTokenIssuer,
  type ServiceAccountTokenIssuerOptions,
} from "../../../../runtime/authn/service-account/token-issuer.js";
import type { KubeObject } from "../../../../runtime/object/kube-object.js";
import type { DeleteOptions } from "../../../../runtime/resources/delete-object.js";
import { ResourceApi } from "../../../../runtime/resources/resource-api.js";
import { MemoryStore } from "../../../../runtime/storage/memory-store.js";
import { builtinKinds } from "../../builtin-kinds.js";

export const issuerUrl = "https://kubernetes.default.svc.cluster.local";
export const namespace = "default";

export interface Fixture {
  resources: ResourceApi;
  clock: { now: Date };
  now: () => Date;
  key: KeyObject;
  issuer(options?: Partial<ServiceAccountTokenIssuerOptions>): ServiceAccountTokenIssuer;
  authenticator(options?: Partial<ServiceAccountTokenAuthenticatorOptions>): ServiceAccountTokenAuthenticator;
  create(resource: CoreResource, obj: KubeObject): Promise<KubeObject>;
  get(resource: CoreResource, name: string): Promise<KubeObject>;
  list(resource: CoreResource): Promise<KubeObject[]>;
  remove(resource: CoreResource, name: string, options?: DeleteOptions): Promise<void>;
  close(): void;
}

export function startFixture(): Fixture {
  const resources = new ResourceApi({ kinds: builtinKinds(), store: new MemoryStore() });
  const clock = { now: new Date() };
  const now = () => clock.now;
  const key = generateSigningKey();
  const target = async (resource: CoreResource, name?: string) => ({
    kind: await coreKind(resource),
    ...(resource === "nodes" ? {} : { namespace }),
    ...(name === undefined ? {} : { name }),
  });
  return {
    resources,
    clock,
    now,
    key,
    issuer: (options = {}) => new ServiceAccountTokenIssuer({ issuers: [issuerUrl], signingKey: key, now, ...options }),
    authenticator: (options = {}) =>
      new ServiceAccountTokenAuthenticator({ issuers: [issuerUrl], keys: [key], resources, now, ...options }),
    create: async (resource, obj) => resources.create(await target(resource), obj),
    get: async (resource, name) => (await resources.get(await target(resource, name))).object,
    list: async (resource) => (await resources.list(await target(resource))).items.map((item) => item.object),
    async remove(resource, name, options) {
      await resources.delete(await target(resource, name), options);
    },
    close: () => resources.close(),
  };
}

export function serviceAccount(name: string): KubeObject {
  return { metadata: { name } };
}

export function pod(name: string, serviceAccountName: string, nodeName?: string): KubeObject {
  return {
    metadata: { name },
    spec: {
      serviceAccountName,
      ...(nodeName === undefined ? {} : { nodeName }),
      containers: [{ name: "app", image: "nginx:1.27" }],
    },
  };
}

export function uidOf(obj: KubeObject): string {
  return (obj.metadata as { uid: string }).uid;
}

/** The message of the AuthenticationError a promise rejects with. */
export async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AuthenticationError) return error.message;
    throw error;
  }
  throw new Error("expected an AuthenticationError");
}

/** The JSON payload of a compact JWS, unverified. */
export function payloadOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
}

export function headerOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[0] ?? "", "base64url").toString("utf8"));
}
