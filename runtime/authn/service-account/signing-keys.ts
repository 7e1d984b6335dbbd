// The keys service account tokens are signed and verified with, read from PEM as kube's keyutil reads
// `--service-account-signing-key-file` (one RSA or ECDSA private key) and `--service-account-key-file`
// (every RSA or ECDSA key a file holds: private, public, or a certificate's). Blocks of other kinds ("EC
// PARAMETERS") are passed over, as kube passes them.
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  X509Certificate,
} from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type SigningAlgorithm = "RS256" | "ES256" | "ES384" | "ES512";

/** A public key as the authenticator and the JWKS use it: kube's key id and the JWS algorithm it verifies. */
export interface VerificationKey {
  keyId: string;
  algorithm: SigningAlgorithm;
  publicKey: KeyObject;
}

const curveAlgorithms: Readonly<Record<string, SigningAlgorithm>> = {
  prime256v1: "ES256",
  secp384r1: "ES384",
  secp521r1: "ES512",
};

/** RS256 for RSA, ES256/384/512 by curve; undefined for the keys kube cannot sign or verify with. */
export function signingAlgorithm(key: KeyObject): SigningAlgorithm | undefined {
  if (key.asymmetricKeyType === "rsa") return "RS256";
  if (key.asymmetricKeyType !== "ec") return undefined;
  return curveAlgorithms[key.asymmetricKeyDetails?.namedCurve ?? ""];
}

function publicOf(key: KeyObject): KeyObject {
  return key.type === "private" ? createPublicKey(key) : key;
}

/** Key ids already computed: exporting a key is costly, and a server asks for its signing key's several times. */
const keyIds = new WeakMap<KeyObject, string>();

/** kube's keyIDFromPublicKey: the unpadded base64url SHA-256 of the public key's PKIX (SPKI) DER. */
export function keyId(key: KeyObject): string {
  let id = keyIds.get(key);
  if (id === undefined) {
    const der = publicOf(key).export({ type: "spki", format: "der" });
    id = createHash("sha256").update(der).digest("base64url");
    keyIds.set(key, id);
  }
  return id;
}

/** The verification side of a key (private keys give their public half). */
export function verificationKey(key: KeyObject): VerificationKey {
  const algorithm = signingAlgorithm(key);
  if (algorithm === undefined) throw new Error("unknown key type, must be RSA or ECDSA (P-256, P-384 or P-521)");
  return { keyId: keyId(key), algorithm, publicKey: publicOf(key) };
}

interface PemBlock {
  type: string;
  der: Buffer;
}

function pemBlocks(pem: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  for (const match of pem.matchAll(/-----BEGIN ([^-\r\n]+)-----\r?\n([\s\S]*?)-----END \1-----/g)) {
    // Headers such as Proc-Type come before a blank line; the base64 body follows.
    const body = (match[2] ?? "").split(/\r?\n/).filter((line) => !line.includes(":"));
    blocks.push({ type: match[1] ?? "", der: Buffer.from(body.join(""), "base64") });
  }
  return blocks;
}

function attempt(parse: () => KeyObject): KeyObject | undefined {
  try {
    return parse();
  } catch {
    return undefined;
  }
}

/** The key a block's DER holds in any of the encodings keyutil tries, whatever the block's label. */
function anyKey(der: Buffer): KeyObject | undefined {
  return (
    attempt(() => createPrivateKey({ key: der, format: "der", type: "pkcs1" })) ??
    attempt(() => createPrivateKey({ key: der, format: "der", type: "pkcs8" })) ??
    attempt(() => createPrivateKey({ key: der, format: "der", type: "sec1" })) ??
    attempt(() => createPublicKey({ key: der, format: "der", type: "spki" })) ??
    attempt(() => createPublicKey({ key: der, format: "der", type: "pkcs1" })) ??
    attempt(() => new X509Certificate(der).publicKey)
  );
}

/** keyutil.ParsePublicKeysPEM: the public half of every RSA or ECDSA key in the PEM text. */
export function parsePublicKeys(pem: string): KeyObject[] {
  const keys: KeyObject[] = [];
  for (const block of pemBlocks(pem)) {
    const key = anyKey(block.der);
    if (key !== undefined && signingAlgorithm(key) !== undefined) keys.push(publicOf(key));
  }
  if (keys.length === 0) throw new Error("data does not contain any valid RSA or ECDSA public keys");
  return keys;
}

const privateKeyTypes: Readonly<Record<string, "sec1" | "pkcs1" | "pkcs8">> = {
  "EC PRIVATE KEY": "sec1",
  "RSA PRIVATE KEY": "pkcs1",
  "PRIVATE KEY": "pkcs8",
};

/** keyutil.ParsePrivateKeyPEM: the first RSA or ECDSA private key, by block label. */
export function parsePrivateKey(pem: string): KeyObject {
  for (const block of pemBlocks(pem)) {
    const type = privateKeyTypes[block.type];
    if (type === undefined) continue;
    const key = attempt(() => createPrivateKey({ key: block.der, format: "der", type }));
    if (key !== undefined && signingAlgorithm(key) !== undefined) return key;
  }
  throw new Error("data does not contain a valid RSA or ECDSA private key");
}

function readKeyFile<T>(path: string, what: string, parse: (pem: string) => T): T {
  try {
    return parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`error reading ${what} file ${path}: ${(error as Error).message}`);
  }
}

/** The keys of one `--service-account-key-file`. */
export function publicKeysFromFile(path: string): KeyObject[] {
  return readKeyFile(path, "public key", parsePublicKeys);
}

/** The key of `--service-account-signing-key-file`. */
export function privateKeyFromFile(path: string): KeyObject {
  return readKeyFile(path, "private key", parsePrivateKey);
}

/**
 * A new signing key for a server started without one. ECDSA P-256 (ES256): generated in about a
 * millisecond where RSA 2048 takes tens to hundreds, and kube signs and verifies both.
 */
export function generateSigningKey(): KeyObject {
  return generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
}

/** `<dir>/sa.key` (made on first start, reused after) so tokens stay valid across restarts. */
export function loadOrCreateSigningKey(dir: string): KeyObject {
  const path = join(dir, "sa.key");
  if (existsSync(path)) return privateKeyFromFile(path);
  const key = generateSigningKey();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Written aside then renamed, so a crash never leaves half a key behind.
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, key.export({ type: "sec1", format: "pem" }), { mode: 0o600 });
  renameSync(partial, path);
  return key;
}
