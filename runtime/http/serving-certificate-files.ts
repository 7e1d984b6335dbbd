// `--tls-cert-file` / `--tls-private-key-file`: the serving certificate (its chain's CA certificates, if any,
// after it) and its key, read and checked once at start as kube-apiserver's serving-cert content is, failing
// with the texts kube's start fails with (Go's file errors, crypto/tls's key pair errors).

import { createPrivateKey, type KeyObject, X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";

export interface ServingCertificateFiles {
  /** PEM of the certificate chain as the file holds it, served as it is. */
  cert: string;
  /** PEM of the key. */
  key: string;
  /**
   * PEM of what verifies the served certificate, as far as the file tells: the certificates after the first,
   * or the certificate itself when it is self-signed; absent when its issuer is not in the file.
   */
  trustedCa?: string;
}

/** Go's text for an error of os.ReadFile: `open <path>: no such file or directory`. */
function goReadError(path: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return new Error(`open ${path}: no such file or directory`);
  if (code === "EACCES") return new Error(`open ${path}: permission denied`);
  if (code === "EISDIR") return new Error(`read ${path}: is a directory`);
  return new Error(`open ${path}: ${error instanceof Error ? error.message : String(error)}`);
}

function readBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw goReadError(path, error);
  }
}

interface PemBlock {
  type: string;
  text: string;
}

function pemBlocks(content: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  for (const match of content.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g)) {
    blocks.push({ type: match[1] ?? "", text: `${match[0]}\n` });
  }
  return blocks;
}

function parseKey(block: PemBlock): KeyObject {
  try {
    return createPrivateKey(block.text);
  } catch {
    throw new Error("tls: failed to parse private key");
  }
}

/** Reads and checks the pair as Go's tls.X509KeyPair does (first key, first certificate). */
export function readServingCertificateFiles(certFile: string, keyFile: string): ServingCertificateFiles {
  if (certFile === "" || keyFile === "") throw new Error("missing filename for serving cert");
  const certBytes = readBytes(certFile);
  const keyBytes = readBytes(keyFile);
  if (certBytes.length === 0 || keyBytes.length === 0) {
    throw new Error(`missing content for serving cert "serving-cert::${certFile}::${keyFile}"`);
  }
  const certBlocks = pemBlocks(certBytes.toString("latin1"));
  const certificates = certBlocks.filter((b) => b.type === "CERTIFICATE");
  if (certificates.length === 0) {
    if (certBlocks.some((b) => b.type.endsWith("PRIVATE KEY"))) {
      throw new Error(
        "tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched",
      );
    }
    throw new Error("tls: failed to find any PEM data in certificate input");
  }
  const keyBlocks = pemBlocks(keyBytes.toString("latin1"));
  const keyBlock = keyBlocks.find((b) => b.type === "PRIVATE KEY" || b.type.endsWith(" PRIVATE KEY"));
  if (keyBlock === undefined) {
    if (keyBlocks.some((b) => b.type === "CERTIFICATE")) {
      throw new Error(
        "tls: found a certificate rather than a key in the PEM for the private key; PEM inputs may have been switched",
      );
    }
    throw new Error("tls: failed to find any PEM data in key input");
  }
  const chain = certificates.map((block) => {
    try {
      return new X509Certificate(block.text);
    } catch {
      throw new Error("tls: failed to parse certificate");
    }
  });
  const leaf = chain[0] as X509Certificate;
  const key = parseKey(keyBlock);
  if (leaf.publicKey.asymmetricKeyType !== key.asymmetricKeyType) {
    throw new Error("tls: private key type does not match public key type");
  }
  if (!leaf.checkPrivateKey(key)) throw new Error("tls: private key does not match public key");
  const issuers = certificates.slice(1).map((b) => b.text);
  const trustedCa =
    issuers.length > 0
      ? issuers.join("")
      : leaf.checkIssued(leaf) && leaf.verify(leaf.publicKey)
        ? certificates[0]?.text
        : undefined;
  return {
    cert: certBytes.toString("utf8"),
    key: keyBytes.toString("utf8"),
    ...(trustedCa === undefined ? {} : { trustedCa }),
  };
}
