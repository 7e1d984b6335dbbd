// Client certificates (`--client-ca-file`, k8s.io/apiserver's request/x509): the chain the TLS client sent
// must verify against the CA bundle for client authentication; the leaf's subject CN is then the user name,
// each O a group, the subject attribute 1.3.6.1.4.1.57683.2 the uid, and the certificate's SHA-256 the
// credential id. A presented certificate that does not verify is an error (401), never anonymous; a
// verified one without a CN is no one's.
import { createHash, type X509Certificate } from "node:crypto";
import {
  type Authenticated,
  AuthenticationError,
  type AuthenticationRequest,
  type RequestAuthenticator,
} from "../access/authenticator.js";
import type { UserInfo } from "../access/user-info.js";
import { type CertificatePool, certificateFields, certificateIdentifier, clientAuthUsage } from "./certificate-pool.js";

const commonNameType = "2.5.4.3";
const organizationType = "2.5.4.10";
/** The subject attribute kube reads a user's uid from (feature AllowParsingUserUIDFromCertAuth, on since 1.34). */
const uidType = "1.3.6.1.4.1.57683.2";
/** The extra key naming the credential a user authenticated with (k8s.io/apiserver user.CredentialIDKey). */
export const credentialIdKey = "authentication.kubernetes.io/credential-id";

/**
 * The leaf of the chain the TLS client presented, once the chain verifies for client authentication;
 * undefined when it presented none. An unverifiable chain is an AuthenticationError worded as kube words it
 * (`verifying certificate SN=…, SKID=…, AKID=… failed: x509: …`).
 */
export function verifiedClientLeaf(
  pool: CertificatePool,
  request: AuthenticationRequest,
  now: Date,
): X509Certificate | undefined {
  const chain = request.peerCertificates();
  const leaf = chain[0];
  if (leaf === undefined) return undefined;
  try {
    pool.verify(chain, clientAuthUsage, now);
  } catch (error) {
    throw new AuthenticationError(
      `verifying certificate ${certificateIdentifier(leaf)} failed: ${(error as Error).message}`,
    );
  }
  return leaf;
}

/** The subject's common name as Go's pkix reads it: the last string-valued CN. */
export function commonNameOf(cert: X509Certificate): string {
  const names = certificateFields(cert).subjectAttributes.filter((a) => a.type === commonNameType);
  return names.filter((a) => a.value !== undefined).at(-1)?.value ?? "";
}

function uidOf(cert: X509Certificate): string | undefined {
  const uids = certificateFields(cert).subjectAttributes.filter((a) => a.type === uidType);
  if (uids.length === 0) return undefined;
  if (uids.some((uid) => uid.value === undefined)) throw new AuthenticationError("unable to parse UID into a string");
  if (uids.length !== 1) {
    throw new AuthenticationError(`expected 1 UID, but found multiple: [${uids.map((uid) => uid.value).join(" ")}]`);
  }
  if (uids[0]?.value === "") throw new AuthenticationError("UID cannot be an empty string");
  return uids[0]?.value;
}

/**
 * kube's CommonNameUserConversion; undefined when the certificate has no CN. `withUid` is the
 * AllowParsingUserUIDFromCertAuth feature gate: off, the uid attribute is not read at all.
 */
export function userFromCertificate(cert: X509Certificate, withUid = true): UserInfo | undefined {
  const name = commonNameOf(cert);
  if (name === "") return undefined;
  const groups = certificateFields(cert)
    .subjectAttributes.filter((a) => a.type === organizationType && a.value !== undefined)
    .map((a) => a.value as string);
  const uid = withUid ? uidOf(cert) : undefined;
  const credential = `X509SHA256=${createHash("sha256").update(cert.raw).digest("hex")}`;
  return { name, groups, ...(uid === undefined ? {} : { uid }), extra: { [credentialIdKey]: [credential] } };
}

/** How long a verified connection's certificate is taken as verified (never past the leaf's expiry). */
const verifiedForMs = 60_000;

export class ClientCertificateAuthenticator implements RequestAuthenticator {
  /** Per presented leaf (one object per TLS connection): verifying a chain costs ~75 µs, every request. */
  private readonly verified = new WeakMap<X509Certificate, { user: UserInfo | undefined; until: number }>();

  constructor(
    private readonly pool: CertificatePool,
    /** The AllowParsingUserUIDFromCertAuth feature gate. */
    private readonly withUid = true,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async authenticate(request: AuthenticationRequest): Promise<Authenticated | undefined> {
    const now = this.now();
    const presented = request.peerCertificates()[0];
    const known = presented === undefined ? undefined : this.verified.get(presented);
    let user = known !== undefined && now.getTime() < known.until ? known.user : undefined;
    if (user === undefined) {
      const leaf = verifiedClientLeaf(this.pool, request, now);
      if (leaf === undefined) return undefined;
      user = userFromCertificate(leaf, this.withUid);
      const until = Math.min(now.getTime() + verifiedForMs, Date.parse(leaf.validTo));
      this.verified.set(leaf, { user, until });
    }
    return user === undefined ? undefined : { user: { ...user, groups: [...user.groups] } };
  }
}
