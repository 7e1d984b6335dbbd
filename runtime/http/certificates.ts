// A self-signed CA and a serving certificate signed by it, built with node:crypto alone (ECDSA P-256) so that
// starting a server costs well under a millisecond of key work and needs no openssl or extra package.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import {
  bitString,
  boolean,
  contextTag,
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
}

export interface ServingNames {
  dns: string[];
  ips: string[];
}

const ecdsaWithSha256 = sequence(oid("1.2.840.10045.4.3.2"));
const hour = 3_600_000;
const year = 365 * 24 * hour;

function name(commonName: string): Buffer {
  return sequence(set(sequence(oid("2.5.4.3"), utf8String(commonName))));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? sequence(oid(id), boolean(true), octetString(value)) : sequence(oid(id), octetString(value));
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

function keyId(publicKey: KeyObject): Buffer {
  return createHash("sha1")
    .update(publicKey.export({ type: "spki", format: "der" }))
    .digest();
}

interface Issued {
  der: Buffer;
  key: KeyObject;
  keyId: Buffer;
}

function issue(
  subject: string,
  issuer: { name: string; key: KeyObject; keyId: Buffer } | undefined,
  extensions: (ownKeyId: Buffer) => Buffer[],
  now: Date,
): Issued {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const ownKeyId = keyId(publicKey);
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  const tbs = sequence(
    contextTag(0, smallInteger(2), true),
    integer(serial),
    ecdsaWithSha256,
    name(issuer?.name ?? subject),
    sequence(utcTime(new Date(now.getTime() - hour)), utcTime(new Date(now.getTime() + 10 * year))),
    name(subject),
    publicKey.export({ type: "spki", format: "der" }),
    contextTag(3, sequence(...extensions(ownKeyId)), true),
  );
  const signature = sign("sha256", tbs, issuer?.key ?? privateKey);
  return { der: sequence(tbs, ecdsaWithSha256, bitString(signature)), key: privateKey, keyId: ownKeyId };
}

function pem(der: Buffer): string {
  const lines = der.toString("base64").match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}

/** A CA named `kapi-ca` and a serving certificate for `names` (Go clients check only subjectAltName). */
export function createServingCertificates(names: ServingNames, now = new Date()): ServingCertificates {
  const caName = "kapi-ca";
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
    "kapi",
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
    caCert: pem(ca.der),
    cert: pem(serving.der),
    key: serving.key.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}
