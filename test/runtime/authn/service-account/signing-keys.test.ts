import { createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  generateSigningKey,
  keyId,
  loadOrCreateSigningKey,
  parsePrivateKey,
  parsePublicKeys,
  privateKeyFromFile,
  publicKeysFromFile,
  signingAlgorithm,
  verificationKey,
} from "../../../../runtime/authn/service-account/signing-keys.js";
import { createServingCertificates } from "../../../../runtime/http/certificates.js";

// Public keys from kube's pkg/serviceaccount tests, with the key ids kube derives for them.
const kubeRsaPublicKey = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA249XwEo9k4tM8fMxV7zx
OhcrP+WvXn917koM5Qr2ZXs4vo26e4ytdlrV0bQ9SlcLpQVSYjIxNfhTZdDt+ecI
zshKuv1gKIxbbLQMOuK1eA/4HALyEkFgmS/tleLJrhc65tKPMGD+pKQ/xhmzRuCG
51RoiMgbQxaCyYxGfNLpLAZK9L0Tctv9a0mJmGIYnIOQM4kC1A1I1n3EsXMWmeJU
j7OTh/AjjCnMnkgvKT2tpKxYQ59PgDgU8Ssc7RDSmSkLxnrv+OrN80j6xrw0OjEi
B4Ycr0PqfzZcvy8efTtFQ/Jnc4Bp1zUtFXt7+QeevePtQ2EcyELXE0i63T1CujRM
WwIDAQAB
-----END PUBLIC KEY-----
`;
const kubeEcdsaPublicKey = `-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEH6cuzP8XuD5wal6wf9M6xDljTOPL
X2i8uIp/C/ASqiIGUeeKQtX0/IR3qCXyThP/dbCiHrF3v1cuhBOHY8CLVg==
-----END PUBLIC KEY-----`;

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
const p384 = generateKeyPairSync("ec", { namedCurve: "P-384" }).privateKey;

function pem(key: KeyObject, type: "pkcs1" | "pkcs8" | "sec1" | "spki"): string {
  return key.export({ type, format: "pem" } as never).toString();
}

/** The public half as PEM: SPKI, or PKCS#1 for RSA. */
function publicPem(key: KeyObject, type: "pkcs1" | "spki"): string {
  return createPublicKey(key).export({ type, format: "pem" }).toString();
}

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function tempDir(): string {
  dir = mkdtempSync(join(tmpdir(), "kapi-sa-keys-"));
  return dir;
}

describe("key ids", () => {
  it("are kube's: base64url SHA-256 of the PKIX public key", () => {
    expect(keyId(parsePublicKeys(kubeRsaPublicKey)[0] as KeyObject)).toBe(
      "JHJehTTTZlsspKHT-GaJxK7Kd1NQgZJu3fyK6K_QDYU",
    );
    expect(keyId(parsePublicKeys(kubeEcdsaPublicKey)[0] as KeyObject)).toBe(
      "SoABiieYuNx4UdqYvZRVeuC6SihxgLrhLy9peHMHpTc",
    );
  });

  it("are the same for a private key and its public half", () => {
    expect(keyId(rsa)).toBe(keyId(parsePublicKeys(publicPem(rsa, "spki"))[0] as KeyObject));
  });

  it("come with the JWS algorithm the key verifies", () => {
    expect(verificationKey(rsa).algorithm).toBe("RS256");
    expect(verificationKey(generateSigningKey()).algorithm).toBe("ES256");
    expect(verificationKey(p384).algorithm).toBe("ES384");
    expect(signingAlgorithm(generateKeyPairSync("ec", { namedCurve: "P-521" }).privateKey)).toBe("ES512");
    expect(signingAlgorithm(generateKeyPairSync("ed25519").privateKey)).toBeUndefined();
  });
});

describe("parsePublicKeys", () => {
  it("reads RSA and ECDSA keys in every encoding, and certificates", () => {
    const certs = createServingCertificates({ dns: ["localhost"], ips: [] });
    const servingKey = parsePrivateKey(certs.key);
    const pemText = [
      "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n",
      pem(rsa, "pkcs1"),
      pem(rsa, "pkcs8"),
      pem(p384, "sec1"),
      publicPem(p384, "spki"),
      publicPem(rsa, "pkcs1"),
      certs.cert,
    ].join("");
    const keys = parsePublicKeys(pemText);
    expect(keys).toHaveLength(6);
    expect(keys.every((key) => key.type === "public")).toBe(true);
    expect(keys.map(keyId)).toEqual([keyId(rsa), keyId(rsa), keyId(p384), keyId(p384), keyId(rsa), keyId(servingKey)]);
  });

  it("refuses text without an RSA or ECDSA key", () => {
    expect(() => parsePublicKeys("")).toThrow("data does not contain any valid RSA or ECDSA public keys");
    expect(() => parsePublicKeys(pem(generateKeyPairSync("ed25519").privateKey, "pkcs8"))).toThrow(
      "data does not contain any valid RSA or ECDSA public keys",
    );
  });
});

describe("parsePrivateKey", () => {
  it("reads the first private key by its block label", () => {
    expect(keyId(parsePrivateKey(pem(p384, "sec1")))).toBe(keyId(p384));
    expect(keyId(parsePrivateKey(pem(rsa, "pkcs1")))).toBe(keyId(rsa));
    expect(keyId(parsePrivateKey(publicPem(rsa, "spki") + pem(p384, "pkcs8") + pem(rsa, "pkcs8")))).toBe(keyId(p384));
  });

  it("refuses public keys and other key types", () => {
    const message = "data does not contain a valid RSA or ECDSA private key";
    expect(() => parsePrivateKey(publicPem(rsa, "spki"))).toThrow(message);
    expect(() => parsePrivateKey(pem(generateKeyPairSync("ed25519").privateKey, "pkcs8"))).toThrow(message);
  });
});

describe("key files", () => {
  it("name the file in their errors, as keyutil does", () => {
    const path = join(tempDir(), "missing.pem");
    expect(() => publicKeysFromFile(path)).toThrow(`error reading public key file ${path}: `);
    writeFileSync(path, "not a key");
    expect(() => privateKeyFromFile(path)).toThrow(
      `error reading private key file ${path}: data does not contain a valid RSA or ECDSA private key`,
    );
    writeFileSync(path, pem(rsa, "pkcs1"));
    expect(keyId(privateKeyFromFile(path))).toBe(keyId(rsa));
    expect(publicKeysFromFile(path).map(keyId)).toEqual([keyId(rsa)]);
  });
});

describe("signing keys", () => {
  it("are generated as ECDSA P-256", () => {
    const key = generateSigningKey();
    expect(key.type).toBe("private");
    expect(key.asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
  });

  it("are kept in <dir>/sa.key, private to the owner, and reused", () => {
    const pki = join(tempDir(), "pki");
    const first = loadOrCreateSigningKey(pki);
    const path = join(pki, "sa.key");
    expect(readFileSync(path, "utf8")).toContain("-----BEGIN EC PRIVATE KEY-----");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(keyId(loadOrCreateSigningKey(pki))).toBe(keyId(first));
  });
});
