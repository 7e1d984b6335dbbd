// kube's legacy validator for secret-based tokens (issuer `kubernetes/serviceaccount`, made by the tokens
// controller into Secrets of type kubernetes.io/service-account-token): the flat claims must be complete
// and agree with `sub`; with `--service-account-lookup` the Secret must still hold this very token, the
// account must exist with the claimed uid, a Secret labelled invalid refuses the token, and each day of use
// is recorded in the Secret's last-used label.
import { timingSafeEqual } from "node:crypto";
import { AuthenticationError } from "../../access/authenticator.js";
import { splitServiceAccountUsername } from "../../access/user-info.js";
import type { KubeObject } from "../../object/kube-object.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { lookUp, type ServiceAccountInfo } from "./bound-token-validator.js";
import { legacyClaimNames } from "./claims.js";
import { coreKind, metaOf } from "./core-objects.js";

export const invalidSinceLabel = "kubernetes.io/legacy-token-invalid-since";
export const lastUsedLabel = "kubernetes.io/legacy-token-last-used";

export interface LegacyValidationContext {
  lookup: boolean;
  resources: ResourceApi;
  now: () => Date;
}

function claim(payload: Record<string, unknown>, name: string, missing: string): string {
  const value = payload[name];
  if (typeof value !== "string" || value === "") throw new AuthenticationError(`${missing} claim is missing`);
  return value;
}

function sameToken(secret: KubeObject, token: string): boolean {
  const stored = (secret.data as Record<string, unknown> | undefined)?.token;
  const held = Buffer.from(typeof stored === "string" ? stored : "", "base64");
  const presented = Buffer.from(token);
  return held.length === presented.length && timingSafeEqual(held, presented);
}

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Labels the Secret with today's date unless it says today or tomorrow already; failures are only lost. */
async function recordUse(context: LegacyValidationContext, secret: KubeObject): Promise<void> {
  const now = context.now();
  const today = day(now);
  const lastUsed = metaOf(secret).labels?.[lastUsedLabel];
  if (lastUsed === today || lastUsed === day(new Date(now.getTime() + 86_400_000))) return;
  const updated = structuredClone(secret);
  const meta = updated.metadata as { name: string; namespace: string; labels?: Record<string, string> };
  meta.labels = { ...meta.labels, [lastUsedLabel]: today };
  try {
    await context.resources.update(
      { kind: await coreKind("secrets"), namespace: meta.namespace, name: meta.name },
      updated,
      {
        owner: { manager: "kube-apiserver" },
      },
    );
  } catch {
    // kube logs and carries on: the label is bookkeeping, not part of the decision.
  }
}

export async function validateLegacyToken(
  token: string,
  payload: Record<string, unknown>,
  context: LegacyValidationContext,
): Promise<ServiceAccountInfo> {
  const subject = typeof payload.sub === "string" ? payload.sub : "";
  if (subject === "") throw new AuthenticationError("sub claim is missing");
  const namespace = claim(payload, legacyClaimNames.namespace, "namespace");
  const secretName = claim(payload, legacyClaimNames.secretName, "secretName");
  const name = claim(payload, legacyClaimNames.serviceAccountName, "serviceAccountName");
  const uid = claim(payload, legacyClaimNames.serviceAccountUid, "serviceAccountUID");
  const split = splitServiceAccountUsername(subject);
  if (split === undefined || split.namespace !== namespace || split.name !== name) {
    throw new AuthenticationError("sub claim is invalid");
  }
  if (!context.lookup) return { namespace, name, uid };

  const invalidated = "Token has been invalidated";
  const validation = { resources: context.resources, now: context.now() };
  const secret = await lookUp(validation, "secrets", secretName, namespace, invalidated);
  if (metaOf(secret).deletionTimestamp !== undefined) throw new AuthenticationError(invalidated);
  if (!sameToken(secret, token)) throw new AuthenticationError("Token does not match server's copy");

  const serviceAccount = await lookUp(validation, "serviceaccounts", name, namespace);
  if (metaOf(serviceAccount).deletionTimestamp !== undefined) {
    throw new AuthenticationError(`ServiceAccount ${namespace}/${name} has been deleted`);
  }
  const actualUid = metaOf(serviceAccount).uid ?? "";
  if (actualUid !== uid)
    throw new AuthenticationError(`ServiceAccount UID (${actualUid}) does not match claim (${uid})`);

  if (metaOf(secret).labels?.[invalidSinceLabel]) {
    await recordUse(context, secret);
    throw new AuthenticationError(
      `the token in secret ${namespace}/${secretName} for service account ${namespace}/${name} has been marked invalid. ` +
        "Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the " +
        `'${invalidSinceLabel}' label from the secret to temporarily allow use of this token`,
    );
  }
  await recordUse(context, secret);
  return { namespace, name, uid };
}
