// A set of trusted CA certificates (the bundles of `--client-ca-file` and `--requestheader-client-ca-file`)
// and the check Go's x509 Certificate.Verify makes of a chain a TLS client presents: a path from the leaf,
// through the intermediates it sent, to one of the CAs; every certificate in its validity period; each
// issuer a CA allowed to sign (basic constraints, key usage, path length); and the wanted extended key usage
// allowed along the whole path. Node's TLS layer is told not to reject unverified peers, so this is the
// only check a client certificate gets.
import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { children, contentOf, decodeOid } from "../http/der.js";
import { nameAttributes, type SubjectAttribute } from "../http/x509-name.js";

/** Extended key usage `id-kp-clientAuth`, which kube asks of every client certificate. */
export const clientAuthUsage = "1.3.6.1.5.5.7.3.2";
const anyExtendedKeyUsage = "2.5.29.37.0";
/** Key usage bit 5 (keyCertSign), numbered as Go numbers them: bit i of the BIT STRING is 1 << i. */
const keyCertSign = 1 << 5;
/** Go gives up a chain search after this many signature checks. */
const maxSignatureChecks = 100;

/** What verification and the mapping to a user read of a certificate, from its DER. */
export interface CertificateFields {
  version: number;
  serialNumber: bigint;
  /** The issuer and subject names DER-encoded as they stand: a child's issuer must equal its parent's subject. */
  issuer: Buffer;
  subject: Buffer;
  subjectAttributes: SubjectAttribute[];
  notBefore: Date;
  notAfter: Date;
  basicConstraints: { ca: boolean; maxPathLength: number | undefined } | undefined;
  keyUsage: number | undefined;
  extendedKeyUsage: string[] | undefined;
  subjectKeyId: Buffer | undefined;
  authorityKeyId: Buffer | undefined;
}

export class CertificateVerificationError extends Error {
  override name = "CertificateVerificationError";
}

interface Element {
  tag: number;
  encoded: Buffer;
}

function decodeInteger(content: Buffer): bigint {
  return content.length === 0 ? 0n : BigInt(`0x${content.toString("hex")}`);
}

function decodeTime(element: Element): Date {
  const text = contentOf(element.encoded).toString("ascii");
  const full = element.tag === 0x17 ? `${Number(text.slice(0, 2)) < 50 ? "20" : "19"}${text}` : text;
  const [, year, month, day, hour, minute, second] = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})/.exec(full) ?? [];
  return new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}Z`);
}

/** Key usage bits as Go numbers them (bit i of the BIT STRING, most significant first, is 1 << i). */
function decodeKeyUsage(content: Buffer): number {
  const bytes = content.subarray(1);
  let usage = 0;
  for (let i = 0; i < Math.min(bytes.length * 8, 9); i++) if ((bytes[i >> 3] ?? 0) & (0x80 >> (i & 7))) usage |= 1 << i;
  return usage;
}

function readExtensions(fields: Element[]): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  const wrapped = fields.find((field) => field.tag === 0xa3);
  if (wrapped === undefined) return found;
  const list = children(wrapped.encoded)[0];
  for (const extension of list === undefined ? [] : children(list.encoded)) {
    const parts = children(extension.encoded);
    const id = parts[0];
    const value = parts[parts.length - 1];
    if (id !== undefined && value?.tag === 0x04) found.set(decodeOid(contentOf(id.encoded)), contentOf(value.encoded));
  }
  return found;
}

function basicConstraintsOf(value: Buffer | undefined): CertificateFields["basicConstraints"] {
  if (value === undefined) return undefined;
  const parts = children(value);
  const ca = parts[0]?.tag === 0x01 && contentOf(parts[0].encoded)[0] !== 0;
  const length = parts.find((part) => part.tag === 0x02);
  return { ca, maxPathLength: length === undefined ? undefined : Number(decodeInteger(contentOf(length.encoded))) };
}

const parsed = new WeakMap<X509Certificate, CertificateFields>();

/** The fields of `cert`, read once. */
export function certificateFields(cert: X509Certificate): CertificateFields {
  const known = parsed.get(cert);
  if (known) return known;
  const tbs = children(cert.raw)[0]?.encoded ?? Buffer.alloc(0);
  const all = children(tbs);
  const explicitVersion = all[0]?.tag === 0xa0 ? all[0] : undefined;
  const fields = explicitVersion ? all.slice(1) : all;
  const [serial, , issuer, validity, subject] = fields;
  const [notBefore, notAfter] = validity === undefined ? [] : children(validity.encoded);
  const extensions = readExtensions(fields);
  const usage = extensions.get("2.5.29.15");
  const extendedUsage = extensions.get("2.5.29.37");
  const subjectKeyId = extensions.get("2.5.29.14");
  const authorityKeyId = extensions.get("2.5.29.35");
  const authorityKeyIdentifier =
    authorityKeyId === undefined ? undefined : children(authorityKeyId).find((part) => part.tag === 0x80);
  const versionNumber = explicitVersion === undefined ? undefined : children(explicitVersion.encoded)[0];
  const result: CertificateFields = {
    version: versionNumber === undefined ? 1 : Number(decodeInteger(contentOf(versionNumber.encoded))) + 1,
    serialNumber: serial === undefined ? 0n : decodeInteger(contentOf(serial.encoded)),
    issuer: issuer?.encoded ?? Buffer.alloc(0),
    subject: subject?.encoded ?? Buffer.alloc(0),
    subjectAttributes: subject === undefined ? [] : nameAttributes(subject.encoded),
    notBefore: notBefore === undefined ? new Date(Number.NaN) : decodeTime(notBefore),
    notAfter: notAfter === undefined ? new Date(Number.NaN) : decodeTime(notAfter),
    basicConstraints: basicConstraintsOf(extensions.get("2.5.29.19")),
    keyUsage: usage === undefined ? undefined : decodeKeyUsage(contentOf(usage)),
    extendedKeyUsage:
      extendedUsage === undefined ? undefined : children(extendedUsage).map((id) => decodeOid(contentOf(id.encoded))),
    subjectKeyId: subjectKeyId === undefined ? undefined : contentOf(subjectKeyId),
    authorityKeyId: authorityKeyIdentifier === undefined ? undefined : contentOf(authorityKeyIdentifier.encoded),
  };
  parsed.set(cert, result);
  return result;
}

function columnSeparatedHex(bytes: Buffer | undefined): string {
  return (bytes ?? Buffer.alloc(0)).toString("hex").toUpperCase().match(/../g)?.join(":") ?? "";
}

/** How kube names a certificate in its errors: `SN=<serial>, SKID=<AB:CD…>, AKID=<…>`. */
export function certificateIdentifier(cert: X509Certificate): string {
  const fields = certificateFields(cert);
  return `SN=${fields.serialNumber}, SKID=${columnSeparatedHex(fields.subjectKeyId)}, AKID=${columnSeparatedHex(fields.authorityKeyId)}`;
}

function goTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

function validityProblem(cert: X509Certificate, now: Date): string | undefined {
  const { notBefore, notAfter } = certificateFields(cert);
  const prefix = "x509: certificate has expired or is not yet valid: current time";
  if (now < notBefore) return `${prefix} ${goTime(now)} is before ${goTime(notBefore)}`;
  if (now > notAfter) return `${prefix} ${goTime(now)} is after ${goTime(notAfter)}`;
  return undefined;
}

/** Go's CheckSignatureFrom: the parent must be a CA allowed to sign certificates, and its key must verify. */
function signatureProblem(child: X509Certificate, parent: X509Certificate): string | undefined {
  const fields = certificateFields(parent);
  const constraints = fields.basicConstraints;
  const notSigner =
    (fields.version === 3 && constraints === undefined) || (constraints !== undefined && !constraints.ca);
  if (notSigner || (fields.keyUsage !== undefined && fields.keyUsage !== 0 && !(fields.keyUsage & keyCertSign))) {
    return "x509: invalid signature: parent certificate cannot sign this kind of certificate";
  }
  let verified = false;
  try {
    verified = child.verify(parent.publicKey);
  } catch {
    verified = false;
  }
  if (verified) return undefined;
  const keyType = parent.publicKey.asymmetricKeyType;
  if (keyType === "rsa" || keyType === "rsa-pss") return "crypto/rsa: verification error";
  return keyType === "ec" ? "x509: ECDSA verification failure" : "x509: Ed25519 verification failure";
}

/** Every certificate of the chain allows `usage`: it names it, allows any usage, or names none. */
function chainAllows(chain: readonly X509Certificate[], usage: string): boolean {
  return chain.every((cert) => {
    const usages = certificateFields(cert).extendedKeyUsage;
    return (
      usages === undefined || usages.length === 0 || usages.includes(anyExtendedKeyUsage) || usages.includes(usage)
    );
  });
}

function hintName(cert: X509Certificate): string {
  const fields = certificateFields(cert);
  const value = (type: string) =>
    fields.subjectAttributes.filter((a) => a.type === type && a.value !== undefined).map((a) => a.value as string);
  return value("2.5.4.3").at(-1) || value("2.5.4.10")[0] || `serial:${fields.serialNumber}`;
}

/** A depth-first search for paths to a root, as Go's buildChains: roots first, then the presented intermediates. */
class ChainSearch {
  private checks = 0;
  private hint: { problem: string; cert: X509Certificate } | undefined;

  constructor(
    private readonly roots: CertificatePool,
    private readonly intermediates: CertificatePool,
    private readonly now: Date,
  ) {}

  build(cert: X509Certificate, chain: readonly X509Certificate[]): X509Certificate[][] {
    const chains: X509Certificate[][] = [];
    for (const root of this.roots.parentsOf(cert)) {
      if (this.consider(cert, root, "root", chain)) chains.push([...chain, root]);
    }
    for (const intermediate of this.intermediates.parentsOf(cert)) {
      if (this.consider(cert, intermediate, "intermediate", chain)) {
        chains.push(...this.build(intermediate, [...chain, intermediate]));
      }
    }
    return chains;
  }

  unknownAuthority(): CertificateVerificationError {
    const message = "x509: certificate signed by unknown authority";
    if (this.hint === undefined) return new CertificateVerificationError(message);
    const { problem, cert } = this.hint;
    return new CertificateVerificationError(
      `${message} (possibly because of ${JSON.stringify(problem)} while trying to verify candidate authority certificate ${JSON.stringify(hintName(cert))})`,
    );
  }

  private consider(
    child: X509Certificate,
    candidate: X509Certificate,
    role: "root" | "intermediate",
    chain: readonly X509Certificate[],
  ): boolean {
    if (chain.some((cert) => cert.raw.equals(candidate.raw))) return false;
    if (++this.checks > maxSignatureChecks) return false;
    const problem = signatureProblem(child, candidate) ?? this.validityProblem(candidate, role, chain);
    if (problem === undefined) return true;
    this.hint ??= { problem, cert: candidate };
    return false;
  }

  /** Go's isValid for an issuer: in its validity period, a CA when an intermediate, within its path length. */
  private validityProblem(
    cert: X509Certificate,
    role: "root" | "intermediate",
    chain: readonly X509Certificate[],
  ): string | undefined {
    const expiry = validityProblem(cert, this.now);
    if (expiry !== undefined) return expiry;
    const constraints = certificateFields(cert).basicConstraints;
    if (role === "intermediate" && !constraints?.ca) {
      return "x509: certificate is not authorized to sign other certificates";
    }
    const limit = constraints?.maxPathLength;
    if (limit !== undefined && chain.length - 1 > limit) {
      return "x509: too many intermediates for path length constraint";
    }
    return undefined;
  }
}

const pemCertificate = /-----BEGIN CERTIFICATE-----\r?\n([\s\S]*?)-----END CERTIFICATE-----/g;

export class CertificatePool {
  private readonly bySubject = new Map<string, X509Certificate[]>();

  constructor(readonly certificates: readonly X509Certificate[]) {
    for (const cert of certificates) {
      const key = certificateFields(cert).subject.toString("hex");
      const same = this.bySubject.get(key) ?? [];
      if (!same.some((known) => known.raw.equals(cert.raw))) same.push(cert);
      this.bySubject.set(key, same);
    }
  }

  /** The CERTIFICATE blocks of a PEM bundle (blocks with headers are skipped, as Go's ParseCertsPEM skips them). */
  static fromPem(pem: string): CertificatePool {
    const certificates: X509Certificate[] = [];
    for (const [, body = ""] of pem.matchAll(pemCertificate)) {
      if (body.includes(":")) continue;
      try {
        certificates.push(new X509Certificate(Buffer.from(body.replace(/\s+/g, ""), "base64")));
      } catch {
        throw new CertificateVerificationError("x509: malformed certificate");
      }
    }
    if (certificates.length === 0) {
      throw new CertificateVerificationError("data does not contain any valid RSA or ECDSA certificates");
    }
    return new CertificatePool(certificates);
  }

  /** A CA bundle file named by a flag, with kube's errors (`purpose` as kube names it: `client-ca-bundle`, `request-header`). */
  static fromFile(purpose: string, path: string): CertificatePool {
    const name = `${purpose}::${path}`;
    const content = readFileSync(path, "utf8");
    if (content.length === 0) throw new Error(`missing content for CA bundle "${name}"`);
    try {
      return CertificatePool.fromPem(content);
    } catch (error) {
      throw new Error(`error loading CA bundle for "${name}": ${(error as Error).message}`);
    }
  }

  /** The certificates as PEM, for the TLS server's `ca` (the CAs a client is told it may present). */
  pem(): string[] {
    return this.certificates.map((cert) => cert.toString());
  }

  /** The certificates whose subject is `cert`'s issuer, byte for byte. */
  parentsOf(cert: X509Certificate): readonly X509Certificate[] {
    return this.bySubject.get(certificateFields(cert).issuer.toString("hex")) ?? [];
  }

  private contains(cert: X509Certificate): boolean {
    const same = this.bySubject.get(certificateFields(cert).subject.toString("hex")) ?? [];
    return same.some((known) => known.raw.equals(cert.raw));
  }

  /**
   * The verified chains (leaf first, a CA of this pool last) from the presented certificates (leaf first, then
   * intermediates); throws CertificateVerificationError with Go's x509 text when there is none.
   */
  verify(presented: readonly X509Certificate[], usage: string, now = new Date()): X509Certificate[][] {
    const [leaf, ...intermediates] = presented;
    if (leaf === undefined) throw new CertificateVerificationError("x509: no certificate presented");
    const expiry = validityProblem(leaf, now);
    if (expiry !== undefined) throw new CertificateVerificationError(expiry);
    let chains: X509Certificate[][];
    if (this.contains(leaf)) chains = [[leaf]];
    else {
      const search = new ChainSearch(this, new CertificatePool(intermediates), now);
      chains = search.build(leaf, [leaf]);
      if (chains.length === 0) throw search.unknownAuthority();
    }
    const allowed = chains.filter((chain) => chainAllows(chain, usage));
    if (allowed.length === 0) {
      throw new CertificateVerificationError("x509: certificate specifies an incompatible key usage");
    }
    return allowed;
  }
}
