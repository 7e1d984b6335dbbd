// Certificates for authenticator tests: CAs, intermediates and client certificates with whatever subject,
// constraints, usages and validity a test needs, built with node:crypto and kapi's DER encoder.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign, X509Certificate } from "node:crypto";
import * as der from "../../../runtime/http/der.js";

export const clientAuth = "1.3.6.1.5.5.7.3.2";
export const serverAuth = "1.3.6.1.5.5.7.3.1";
export const anyUsage = "2.5.29.37.0";
export const uidAttribute = "1.3.6.1.4.1.57683.2";

export interface CertificateSpec {
  commonName?: string;
  organizations?: readonly string[];
  /** Further subject attributes as [type, DER-encoded value]. */
  attributes?: readonly [string, Buffer][];
  /** basicConstraints: a CA (with an optional path length), not a CA, or none at all. */
  ca?: boolean | { pathLength: number };
  noBasicConstraints?: boolean;
  /** Key usage bits (0 digitalSignature … 5 keyCertSign); default: none for leaves, certSign for CAs. */
  keyUsage?: readonly number[];
  /** Extended key usages; default: clientAuth for leaves, none for CAs. */
  extendedKeyUsage?: readonly string[];
  notBefore?: Date;
  notAfter?: Date;
  keyType?: "ec" | "rsa";
}

export interface TestCertificate {
  x509: X509Certificate;
  /** PEM of the certificate, and of its PKCS#8 key. */
  cert: string;
  key: string;
  privateKey: KeyObject;
  subject: Buffer;
  keyId: Buffer;
}

const hour = 3_600_000;

/** A PrintableString value, to test the string types besides UTF8String. */
export function printable(text: string): Buffer {
  return der.tlv(0x13, Buffer.from(text, "ascii"));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical
    ? der.sequence(der.oid(id), der.boolean(true), der.octetString(value))
    : der.sequence(der.oid(id), der.octetString(value));
}

function keyUsage(bits: readonly number[]): Buffer {
  let value = 0;
  for (const bit of bits) value |= 0x8000 >> bit;
  const bytes = Buffer.from([value >> 8, value & 0xff]);
  const used = bytes[1] === 0 ? bytes.subarray(0, 1) : bytes;
  const last = used[used.length - 1] ?? 0;
  let unused = 0;
  while (unused < 7 && ((last >> unused) & 1) === 0) unused++;
  return der.tlv(0x03, Buffer.concat([Buffer.from([unused]), used]));
}

function subjectName(spec: CertificateSpec): Buffer {
  const attribute = (type: string, value: Buffer) => der.set(der.sequence(der.oid(type), value));
  return der.sequence(
    ...(spec.organizations ?? []).map((o) => attribute("2.5.4.10", der.utf8String(o))),
    ...(spec.attributes ?? []).map(([type, value]) => attribute(type, value)),
    ...(spec.commonName === undefined ? [] : [attribute("2.5.4.3", der.utf8String(spec.commonName))]),
  );
}

function keyIdOf(publicKey: KeyObject): Buffer {
  return createHash("sha1")
    .update(publicKey.export({ type: "spki", format: "der" }))
    .digest();
}

/** A certificate for `spec`, signed by `issuer` (self-signed without one). */
export function issueCertificate(spec: CertificateSpec, issuer?: TestCertificate): TestCertificate {
  const { publicKey, privateKey } =
    spec.keyType === "rsa"
      ? generateKeyPairSync("rsa", { modulusLength: 2048 })
      : generateKeyPairSync("ec", { namedCurve: "P-256" });
  const subject = subjectName(spec);
  const keyId = keyIdOf(publicKey);
  const isCa = spec.ca !== undefined && spec.ca !== false;
  const constraints =
    typeof spec.ca === "object"
      ? der.sequence(der.boolean(true), der.smallInteger(spec.ca.pathLength))
      : der.sequence(...(isCa ? [der.boolean(true)] : []));
  const usages = spec.keyUsage ?? (isCa ? [5, 6] : [0]);
  const extendedUsages = spec.extendedKeyUsage ?? (isCa ? [] : [clientAuth]);
  const extensions = [
    ...(spec.noBasicConstraints ? [] : [extension("2.5.29.19", true, constraints)]),
    ...(usages.length === 0 ? [] : [extension("2.5.29.15", true, keyUsage(usages))]),
    ...(extendedUsages.length === 0
      ? []
      : [extension("2.5.29.37", false, der.sequence(...extendedUsages.map(der.oid)))]),
    extension("2.5.29.14", false, der.octetString(keyId)),
    extension("2.5.29.35", false, der.sequence(der.contextTag(0, issuer?.keyId ?? keyId, false))),
  ];
  const signer = issuer?.privateKey ?? privateKey;
  const algorithm =
    signer.asymmetricKeyType === "rsa"
      ? der.sequence(der.oid("1.2.840.113549.1.1.11"), Buffer.from([0x05, 0x00]))
      : der.sequence(der.oid("1.2.840.10045.4.3.2"));
  const now = Date.now();
  const tbs = der.sequence(
    der.contextTag(0, der.smallInteger(2), true),
    der.integer(randomBytes(12)),
    algorithm,
    issuer?.subject ?? subject,
    der.sequence(
      der.utcTime(spec.notBefore ?? new Date(now - hour)),
      der.utcTime(spec.notAfter ?? new Date(now + 24 * hour)),
    ),
    subject,
    publicKey.export({ type: "spki", format: "der" }),
    der.contextTag(3, der.sequence(...extensions), true),
  );
  const encoded = der.sequence(tbs, algorithm, der.bitString(sign("sha256", tbs, signer)));
  const x509 = new X509Certificate(encoded);
  return {
    x509,
    cert: x509.toString(),
    key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    privateKey,
    subject,
    keyId,
  };
}

export function issueCa(commonName: string, spec: CertificateSpec = {}, issuer?: TestCertificate): TestCertificate {
  return issueCertificate({ commonName, ca: true, ...spec }, issuer);
}
