// A CertificateSigningRequest's spec.request: a PEM block holding a PKCS#10 certification request (RFC 2986),
// read as kube reads it (certificates.ParseCSR, then x509's CheckSignature), with the fields its validation,
// admission plugins and signers look at. node:crypto has no PKCS#10 reader, so the DER is walked here with
// the encoder's own helpers; parse failures carry the texts Go gives for the common cases.
import { createPublicKey, type KeyObject, verify } from "node:crypto";
import { children, contentOf, decodeOid } from "../http/der.js";
import { nameAttributes, type SubjectAttribute } from "../http/x509-name.js";

export interface CertificateRequest {
  /** The subject's attributes in their order, every relative name flattened. */
  subject: SubjectAttribute[];
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  emailAddresses: string[];
  /** IP subjectAltNames as bytes (4 or 16). */
  ipAddresses: Buffer[];
  uris: string[];
  /** The SubjectPublicKeyInfo, DER. */
  publicKeyInfo: Buffer;
  publicKey: KeyObject;
  /** Why the request's signature does not verify (Go's CheckSignature text); undefined when it does. */
  signatureProblem(): string | undefined;
}

export class CertificateRequestError extends Error {
  override name = "CertificateRequestError";
}

const commonNameType = "2.5.4.3";
const organizationType = "2.5.4.10";
const extensionRequestType = "1.2.840.113549.1.9.14";
const subjectAltNameType = "2.5.29.17";

/** Signature algorithms by OID: the digest node:crypto verifies with (null: the key's own, Ed25519). */
const signatureDigests: Record<string, string | null> = {
  "1.2.840.113549.1.1.5": "sha1",
  "1.2.840.113549.1.1.11": "sha256",
  "1.2.840.113549.1.1.12": "sha384",
  "1.2.840.113549.1.1.13": "sha512",
  "1.2.840.10045.4.1": "sha1",
  "1.2.840.10045.4.3.2": "sha256",
  "1.2.840.10045.4.3.3": "sha384",
  "1.2.840.10045.4.3.4": "sha512",
  "1.3.101.112": null,
};

/** Go's encoding/pem Decode: the first block in the data, its type and its base64 body decoded. */
function firstPemBlock(data: string): { type: string; bytes: Buffer } | undefined {
  const match = /-----BEGIN ([^\r\n-]*)-----\r?\n([\s\S]*?)-----END \1-----/.exec(data);
  if (match === null) return undefined;
  // Header lines (`Key: value`) come before an empty line; the body is what follows.
  const body = (match[2] ?? "").split(/\r?\n/).filter((line) => !line.includes(":"));
  return { type: match[1] ?? "", bytes: Buffer.from(body.join(""), "base64") };
}

/**
 * Go's asn1 check of the outermost element: a SEQUENCE whose length fits the data, with the text
 * asn1.Unmarshal gives when it is not.
 */
function checkOuterSequence(der: Buffer): void {
  if (der.length < 2) throw new CertificateRequestError("asn1: syntax error: data truncated");
  const first = der[0] ?? 0;
  const lengthByte = der[1] ?? 0;
  let length = lengthByte;
  let offset = 2;
  if (lengthByte & 0x80) {
    const count = lengthByte & 0x7f;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (der[2 + i] ?? 0);
    offset = 2 + count;
  }
  if (first !== 0x30) {
    const fieldParameters =
      "{optional:false explicit:false application:false private:false defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false}";
    throw new CertificateRequestError(
      `asn1: structure error: tags don't match (16 vs {class:${first >> 6} tag:${first & 0x1f} length:${length} isCompound:${(first & 0x20) !== 0}}) ${fieldParameters} certificateRequest @${offset}`,
    );
  }
  if (offset + length > der.length) throw new CertificateRequestError("asn1: syntax error: data truncated");
  if (offset + length < der.length) throw new CertificateRequestError("asn1: syntax error: trailing data");
}

interface AltNames {
  dnsNames: string[];
  emailAddresses: string[];
  ipAddresses: Buffer[];
  uris: string[];
}

function altNamesOf(attributes: Buffer | undefined): AltNames {
  const names: AltNames = { dnsNames: [], emailAddresses: [], ipAddresses: [], uris: [] };
  for (const attribute of attributes === undefined ? [] : children(attributes)) {
    const [type, values] = children(attribute.encoded);
    if (type === undefined || values === undefined || decodeOid(contentOf(type.encoded)) !== extensionRequestType) {
      continue;
    }
    for (const list of children(values.encoded)) {
      for (const extension of children(list.encoded)) {
        const parts = children(extension.encoded);
        const id = parts[0];
        const value = parts[parts.length - 1];
        if (id === undefined || value === undefined || decodeOid(contentOf(id.encoded)) !== subjectAltNameType)
          continue;
        for (const name of children(contentOf(value.encoded))) {
          const content = contentOf(name.encoded);
          if (name.tag === 0x81) names.emailAddresses.push(content.toString("ascii"));
          else if (name.tag === 0x82) names.dnsNames.push(content.toString("ascii"));
          else if (name.tag === 0x86) names.uris.push(content.toString("ascii"));
          else if (name.tag === 0x87) names.ipAddresses.push(Buffer.from(content));
        }
      }
    }
  }
  return names;
}

function verificationFailure(key: KeyObject): string {
  if (key.asymmetricKeyType === "rsa") return "crypto/rsa: verification error";
  if (key.asymmetricKeyType === "ed25519") return "x509: Ed25519 verification failure";
  return "x509: ECDSA verification failure";
}

/** The DER of a certification request, parsed; throws a CertificateRequestError with Go's text. */
export function parseCertificateRequestDer(der: Buffer): CertificateRequest {
  checkOuterSequence(der);
  const [info, algorithm, signature] = children(der);
  if (info?.tag !== 0x30 || algorithm?.tag !== 0x30 || signature?.tag !== 0x03) {
    throw new CertificateRequestError("asn1: structure error: tags don't match");
  }
  const [version, subject, publicKeyInfo, attributes] = children(info.encoded);
  if (version?.tag !== 0x02 || subject?.tag !== 0x30 || publicKeyInfo?.tag !== 0x30) {
    throw new CertificateRequestError("asn1: structure error: tags don't match");
  }
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({ key: publicKeyInfo.encoded, format: "der", type: "spki" });
  } catch {
    throw new CertificateRequestError("x509: unsupported elliptic curve");
  }
  const attributesList = attributes?.tag === 0xa0 ? attributes.encoded : undefined;
  const subjectAttributes = nameAttributes(subject.encoded);
  const algorithmId = children(algorithm.encoded)[0];
  const algorithmOid = algorithmId === undefined ? "" : decodeOid(contentOf(algorithmId.encoded));
  const signatureBits = contentOf(signature.encoded).subarray(1);
  return {
    subject: subjectAttributes,
    commonName: subjectAttributes.filter((a) => a.type === commonNameType && a.value !== undefined).at(-1)?.value ?? "",
    organizations: subjectAttributes
      .filter((a) => a.type === organizationType && a.value !== undefined)
      .map((a) => a.value as string),
    ...altNamesOf(attributesList),
    publicKeyInfo: Buffer.from(publicKeyInfo.encoded),
    publicKey,
    signatureProblem(): string | undefined {
      const digest = signatureDigests[algorithmOid];
      if (digest === undefined) return "x509: cannot verify signature: algorithm unimplemented";
      try {
        return verify(digest, info.encoded, publicKey, signatureBits) ? undefined : verificationFailure(publicKey);
      } catch {
        return verificationFailure(publicKey);
      }
    },
  };
}

/** kube's certificates.ParseCSR: the first PEM block must be a CERTIFICATE REQUEST. */
export function parseCertificateRequest(pemBytes: Buffer): CertificateRequest {
  const block = firstPemBlock(pemBytes.toString("latin1"));
  if (block === undefined || block.type !== "CERTIFICATE REQUEST") {
    throw new CertificateRequestError("PEM block type must be CERTIFICATE REQUEST");
  }
  return parseCertificateRequestDer(block.bytes);
}

/** spec.request as the API carries it (base64 of the PEM bytes), parsed. */
export function requestOf(spec: { request?: unknown } | undefined): CertificateRequest {
  const request = typeof spec?.request === "string" ? Buffer.from(spec.request, "base64") : Buffer.alloc(0);
  return parseCertificateRequest(request);
}
