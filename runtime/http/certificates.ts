// A self-signed CA, a serving certificate and client certificates signed by it, built with node:crypto alone
// (ECDSA P-256) so that starting a server costs well under a millisecond of key work and needs no openssl or
// extra package.
import {
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
  X509Certificate,
} from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import {
  bitString,
  boolean,
  children,
  contextTag,
  extension,
  integer,
  octetString,
  oid,
  sequence,
  set,
  smallInteger,
  tlv,
  utcTime,
  utf8String,
} from "./der.js";

export interface ServingCertificates {
  /** PEM of the CA that clients trust (the kubeconfig's certificate-authority-data). */
  caCert: string;
  /** PEM of the serving certificate and its PKCS#8 key. */
  cert: string;
  key: string;
  /** PEM (PKCS#8) of the CA's key, which issues client certificates; absent when only the certificate is known. */
  caKey?: string;
  /**
   * PEM of what verifies a serving certificate not issued by `caCert` (`--tls-cert-file`'s chain): clients
   * trust it along with `caCert`.
   */
  servingCa?: string;
}

export interface ClientCertificate {
  cert: string;
  key: string;
}

export interface ServingNames {
  dns: string[];
  ips: string[];
}

const ecdsaWithSha256 = sequence(oid("1.2.840.10045.4.3.2"));
const sha256WithRsa = sequence(oid("1.2.840.113549.1.1.11"), Buffer.from([0x05, 0x00]));
const hour = 3_600_000;
const year = 365 * 24 * hour;

/** A distinguished name: one relative name per organization, then the common name (Go's pkix order). */
function name(commonName: string, organizations: readonly string[] = []): Buffer {
  return sequence(
    ...organizations.map((o) => set(sequence(oid("2.5.4.10"), utf8String(o)))),
    set(sequence(oid("2.5.4.3"), utf8String(commonName))),
  );
}

/** KeyUsage bits are numbered from the most significant bit; DER drops the trailing zero bits. */
function keyUsage(bits: number[]): Buffer {
  let byte = 0;
  for (const bit of bits) byte |= 0x80 >> bit;
  let unused = 0;
  while (unused < 7 && ((byte >> unused) & 1) === 0) unused++;
  return tlv(0x03, Buffer.from([unused, byte]));
}

function ipBytes(ip: string): Buffer {
  if (isIPv4(ip)) return Buffer.from(ip.split(".").map(Number));
  const [head = "", tail] = ip.split("::");
  const groups = (s: string) => (s === "" ? [] : s.split(":").map((g) => Number.parseInt(g, 16)));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const out = Buffer.alloc(16);
  for (const [i, g] of all.entries()) out.writeUInt16BE(g, i * 2);
  return out;
}

/**
 * RFC 5280's key identifier (method 1, as openssl and Go compute it): SHA-1 of the public key's bits, read
 * from its SPKI DER (exporting a key is the costly part, so a certificate's is exported once).
 */
function keyId(spki: Buffer): Buffer {
  const bits = children(spki)[1]?.encoded ?? Buffer.alloc(0);
  const lengthBytes = (bits[1] ?? 0) < 0x80 ? 1 : 1 + ((bits[1] ?? 0) & 0x7f);
  return createHash("sha1")
    .update(bits.subarray(1 + lengthBytes + 1))
    .digest();
}

interface Issued {
  der: Buffer;
  key: KeyObject;
  keyId: Buffer;
}

interface Issuer {
  /** The issuer's subject, DER-encoded exactly as in its certificate. */
  name: Buffer;
  key: KeyObject;
  keyId: Buffer;
}

function issue(
  subject: Buffer,
  issuer: Issuer | undefined,
  extensions: (ownKeyId: Buffer) => Buffer[],
  now: Date,
  lifetime = 10 * year,
): Issued {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const spki = publicKey.export({ type: "spki", format: "der" });
  const ownKeyId = keyId(spki);
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  const signer = issuer?.key ?? privateKey;
  const algorithm = signer.asymmetricKeyType === "rsa" ? sha256WithRsa : ecdsaWithSha256;
  const tbs = sequence(
    contextTag(0, smallInteger(2), true),
    integer(serial),
    algorithm,
    issuer?.name ?? subject,
    sequence(utcTime(new Date(now.getTime() - hour)), utcTime(new Date(now.getTime() + lifetime))),
    subject,
    spki,
    contextTag(3, sequence(...extensions(ownKeyId)), true),
  );
  const signature = sign("sha256", tbs, signer);
  return { der: sequence(tbs, algorithm, bitString(signature)), key: privateKey, keyId: ownKeyId };
}

/** A DER certificate as a PEM CERTIFICATE block, 64 base64 characters a line. */
export function certificatePem(der: Buffer): string {
  const lines = der.toString("base64").match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}

/** A CA named `kapi-ca` and a serving certificate for `names` (Go clients check only subjectAltName). */
export function createServingCertificates(names: ServingNames, now = new Date()): ServingCertificates {
  const caName = name("kapi-ca");
  const ca = issue(
    caName,
    undefined,
    (id) => [
      extension("2.5.29.15", true, keyUsage([0, 5, 6])),
      extension("2.5.29.19", true, sequence(boolean(true))),
      extension("2.5.29.14", false, octetString(id)),
    ],
    now,
  );
  const altNames = [
    ...names.dns.map((d) => contextTag(2, Buffer.from(d, "ascii"), false)),
    ...names.ips.filter((ip) => isIPv4(ip) || isIPv6(ip)).map((ip) => contextTag(7, ipBytes(ip), false)),
  ];
  const serving = issue(
    name("kapi"),
    { name: caName, key: ca.key, keyId: ca.keyId },
    () => [
      extension("2.5.29.15", true, keyUsage([0, 2])),
      extension("2.5.29.37", false, sequence(oid("1.3.6.1.5.5.7.3.1"))),
      extension("2.5.29.19", true, sequence()),
      extension("2.5.29.35", false, sequence(contextTag(0, ca.keyId, false))),
      extension("2.5.29.17", false, sequence(...altNames)),
    ],
    now,
  );
  return {
    caCert: certificatePem(ca.der),
    cert: certificatePem(serving.der),
    key: serving.key.export({ type: "pkcs8", format: "pem" }).toString(),
    caKey: ca.key.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

/** The subject of a certificate, DER-encoded as it stands (the issuer field of what it signs must match it). */
function subjectOf(cert: X509Certificate): Buffer {
  const tbs = children(cert.raw)[0]?.encoded ?? Buffer.alloc(0);
  const fields = children(tbs);
  const offset = fields[0]?.tag === 0xa0 ? 1 : 0;
  const subject = fields[offset + 4]?.encoded;
  if (subject === undefined) throw new Error("the CA certificate has no subject");
  return subject;
}

/**
 * A client certificate (CN the user, each O a group) signed by the CA, valid for a year: what a kubeconfig
 * carries to authenticate with the client-certificate authenticator.
 */
export function issueClientCertificate(
  ca: { cert: string; key: string },
  user: { commonName: string; organizations?: readonly string[] },
  now = new Date(),
): ClientCertificate {
  const caCert = new X509Certificate(ca.cert);
  const issuer: Issuer = {
    name: subjectOf(caCert),
    key: createPrivateKey(ca.key),
    keyId: keyId(caCert.publicKey.export({ type: "spki", format: "der" })),
  };
  const client = issue(
    name(user.commonName, user.organizations),
    issuer,
    () => [
      extension("2.5.29.15", true, keyUsage([0])),
      extension("2.5.29.37", false, sequence(oid("1.3.6.1.5.5.7.3.2"))),
      extension("2.5.29.19", true, sequence()),
      extension("2.5.29.35", false, sequence(contextTag(0, issuer.keyId, false))),
    ],
    now,
    year,
  );
  return { cert: certificatePem(client.der), key: client.key.export({ type: "pkcs8", format: "pem" }).toString() };
}

/** The CA bundle clients verify the server with: `caCert`, and `servingCa` when the serving certificate has its own. */
export function clientTrustBundle(certificates: ServingCertificates): string {
  if (certificates.servingCa === undefined) return certificates.caCert;
  const ca = certificates.caCert.endsWith("\n") ? certificates.caCert : `${certificates.caCert}\n`;
  return `${ca}${certificates.servingCa}`;
}
