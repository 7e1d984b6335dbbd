// kube's certificate authority (pkg/controller/certificates/authority) signing a request: the request's
// subject as Go re-encodes it, its subjectAltNames and public key, the key usages the CSR lists, never a CA,
// valid from five minutes ago (backdated) for the granted duration, never past the CA's own expiry.
import { createPrivateKey, type KeyObject, randomBytes, sign, X509Certificate } from "node:crypto";
import { certificateFields } from "../../authn/certificate-pool.js";
import { certificatePem } from "../../http/certificates.js";
import {
  bitString,
  contextTag,
  extension,
  integer,
  oid,
  sequence,
  set,
  smallInteger,
  tlv,
  utcTime,
  utf8String,
} from "../../http/der.js";
import type { CertificateRequest } from "../../strategies/certificate-signing-request-parse.js";

export interface SigningCa {
  /** PEM of the CA certificate and of its private key. */
  cert: string;
  key: string;
}

const minute = 60_000;
const backdateMs = 5 * minute;
/** Below this duration the backdating is not taken off the end (kube's Short: 8 hours). */
const shortMs = 8 * 60 * minute;

/** x509.KeyUsage bits, numbered from the most significant bit of the BIT STRING. */
const keyUsageBits: Record<string, number> = {
  signing: 0,
  "digital signature": 0,
  "content commitment": 1,
  "key encipherment": 2,
  "data encipherment": 3,
  "key agreement": 4,
  "cert sign": 5,
  "crl sign": 6,
  "encipher only": 7,
  "decipher only": 8,
};

/** x509.ExtKeyUsage: Go's enum value (the order certificates list them in) and OID. */
const extendedUsages: Record<string, [number, string]> = {
  any: [0, "2.5.29.37.0"],
  "server auth": [1, "1.3.6.1.5.5.7.3.1"],
  "client auth": [2, "1.3.6.1.5.5.7.3.2"],
  "code signing": [3, "1.3.6.1.5.5.7.3.3"],
  "email protection": [4, "1.3.6.1.5.5.7.3.4"],
  "s/mime": [4, "1.3.6.1.5.5.7.3.4"],
  "ipsec end system": [5, "1.3.6.1.5.5.7.3.5"],
  "ipsec tunnel": [6, "1.3.6.1.5.5.7.3.6"],
  "ipsec user": [7, "1.3.6.1.5.5.7.3.7"],
  timestamping: [8, "1.3.6.1.5.5.7.3.8"],
  "ocsp signing": [9, "1.3.6.1.5.5.7.3.9"],
  "microsoft sgc": [10, "1.3.6.1.4.1.311.10.3.3"],
  "netscape sgc": [11, "2.16.840.1.113730.4.1"],
};

/** pkix.Name.ToRDNSequence's order; each type's values share one relative name. */
const subjectOrder = ["2.5.4.6", "2.5.4.8", "2.5.4.7", "2.5.4.9", "2.5.4.17", "2.5.4.10", "2.5.4.11"];
const commonNameType = "2.5.4.3";
const serialNumberType = "2.5.4.5";

/** Go's asn1 marshals a string as PrintableString when it can, else UTF8String. */
function directoryString(value: string): Buffer {
  return /^[A-Za-z0-9 '()+,\-./:=?*&]*$/.test(value) ? tlv(0x13, Buffer.from(value, "ascii")) : utf8String(value);
}

function subjectName(request: CertificateRequest): Buffer {
  const valuesOf = (type: string) =>
    request.subject.filter((a) => a.type === type && a.value !== undefined).map((a) => a.value as string);
  const relativeName = (type: string, values: string[]) =>
    set(...values.map((value) => sequence(oid(type), directoryString(value))));
  const names = subjectOrder.flatMap((type) => {
    const values = valuesOf(type);
    return values.length === 0 ? [] : [relativeName(type, values)];
  });
  if (request.commonName !== "") names.push(relativeName(commonNameType, [request.commonName]));
  const serial = valuesOf(serialNumberType).at(-1);
  if (serial !== undefined && serial !== "") names.push(relativeName(serialNumberType, [serial]));
  return sequence(...names);
}

/** A KeyUsage BIT STRING as Go writes it: two bytes when decipherOnly is set, trailing zero bits dropped. */
function keyUsageValue(bits: number): Buffer {
  const bytes = Buffer.from([bits & 0xff, (bits >> 8) & 0xff]).map((b) => {
    let reversed = 0;
    for (let i = 0; i < 8; i++) if (b & (1 << i)) reversed |= 0x80 >> i;
    return reversed;
  });
  const used = bytes[1] === 0 ? bytes.subarray(0, 1) : bytes;
  const last = used[used.length - 1] ?? 0;
  let unused = 0;
  while (unused < 7 && ((last >> unused) & 1) === 0) unused++;
  return tlv(0x03, Buffer.concat([Buffer.from([unused]), used]));
}

function signatureAlgorithm(key: KeyObject): { id: Buffer; digest: string | null } {
  if (key.asymmetricKeyType === "rsa") {
    return { id: sequence(oid("1.2.840.113549.1.1.11"), Buffer.from([0x05, 0x00])), digest: "sha256" };
  }
  if (key.asymmetricKeyType === "ed25519") return { id: sequence(oid("1.3.101.112")), digest: null };
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (curve === "secp384r1") return { id: sequence(oid("1.2.840.10045.4.3.3")), digest: "sha384" };
  if (curve === "secp521r1") return { id: sequence(oid("1.2.840.10045.4.3.4")), digest: "sha512" };
  return { id: sequence(oid("1.2.840.10045.4.3.2")), digest: "sha256" };
}

function altNames(request: CertificateRequest): Buffer | undefined {
  const names = [
    ...request.dnsNames.map((name) => contextTag(2, Buffer.from(name, "ascii"), false)),
    ...request.emailAddresses.map((name) => contextTag(1, Buffer.from(name, "ascii"), false)),
    ...request.ipAddresses.map((ip) => contextTag(7, ip, false)),
    ...request.uris.map((uri) => contextTag(6, Buffer.from(uri, "ascii"), false)),
  ];
  return names.length === 0 ? undefined : sequence(...names);
}

/** The PEM certificate the CA issues for `request`, valid for `durationMs` from `now`. */
export function issueCertificate(
  ca: SigningCa,
  request: CertificateRequest,
  usages: readonly string[],
  durationMs: number,
  now: Date,
): string {
  const caCert = new X509Certificate(ca.cert);
  const caKey = createPrivateKey(ca.key);
  const caFields = certificateFields(caCert);
  const caNotAfter = caFields.notAfter.getTime();
  const notBefore = now.getTime() - backdateMs;
  let notAfter = durationMs < shortMs ? now.getTime() + durationMs : now.getTime() + durationMs - backdateMs;
  if (notAfter >= caNotAfter) notAfter = caNotAfter;
  if (notBefore >= caNotAfter) throw new Error(`the signer has expired: NotAfter=${caFields.notAfter.toISOString()}`);

  let keyUsage = 0;
  const extended = new Map<number, string>();
  for (const usage of usages) {
    const bit = keyUsageBits[usage];
    if (bit !== undefined) keyUsage |= 1 << bit;
    const ext = extendedUsages[usage];
    if (ext !== undefined) extended.set(ext[0], ext[1]);
  }
  const extensions: Buffer[] = [];
  if (keyUsage !== 0) extensions.push(extension("2.5.29.15", true, keyUsageValue(keyUsage)));
  if (extended.size > 0) {
    const ids = [...extended.entries()].sort(([a], [b]) => a - b).map(([, id]) => oid(id));
    extensions.push(extension("2.5.29.37", false, sequence(...ids)));
  }
  extensions.push(extension("2.5.29.19", true, sequence()));
  if (caFields.subjectKeyId !== undefined) {
    extensions.push(extension("2.5.29.35", false, sequence(contextTag(0, caFields.subjectKeyId, false))));
  }
  const names = altNames(request);
  if (names !== undefined) extensions.push(extension("2.5.29.17", false, names));

  const serial = randomBytes(16);
  const algorithm = signatureAlgorithm(caKey);
  const tbs = sequence(
    contextTag(0, smallInteger(2), true),
    integer(serial),
    algorithm.id,
    caFields.subject,
    sequence(utcTime(new Date(notBefore)), utcTime(new Date(notAfter))),
    subjectName(request),
    request.publicKeyInfo,
    contextTag(3, sequence(...extensions), true),
  );
  const signature = sign(algorithm.digest, tbs, caKey);
  return certificatePem(sequence(tbs, algorithm.id, bitString(signature)));
}
