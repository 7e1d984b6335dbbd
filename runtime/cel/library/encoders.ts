// cel-go's ext.Encoders: `base64.encode(bytes) -> string` and `base64.decode(string) -> bytes`. Decoding
// accepts padded and unpadded input (Go's StdEncoding, then RawStdEncoding) and reports Go's error text.

import { BytesType, StringType } from "../common/cel-types.js";
import type { CelLibrary } from "../common/decls.js";
import { CelError } from "../common/values.js";
import { declareFunction, globalOverload } from "./standard/declare.js";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Decodes standard base64, padded or not; the error names the first offending byte as Go does. */
export function decodeBase64(text: string): Uint8Array | CelError {
  const input = text.replace(/[\r\n]/g, "");
  let end = input.length;
  if (end % 4 === 0 && input.endsWith("==")) end -= 2;
  else if (end % 4 === 0 && input.endsWith("=")) end -= 1;
  for (let i = 0; i < end; i++) {
    if (ALPHABET.indexOf(input[i] as string) < 0) return illegal(i);
  }
  if (end % 4 === 1) return illegal(end);
  const bytes = Buffer.from(input.slice(0, end), "base64");
  // Go rejects non-zero trailing bits in the last quantum.
  if (!Buffer.from(bytes).toString("base64").startsWith(input.slice(0, end))) return illegal(end - 1);
  return new Uint8Array(bytes);
}

function illegal(offset: number): CelError {
  return new CelError(`illegal base64 data at input byte ${offset}`);
}

export const encodersLibrary: CelLibrary = {
  name: "cel.lib.ext.encoders",
  functions: [
    declareFunction(
      "base64.decode",
      globalOverload("base64_decode_string", [StringType], BytesType, ([s]) =>
        typeof s === "string" ? decodeBase64(s) : new CelError("no such overload"),
      ),
    ),
    declareFunction(
      "base64.encode",
      globalOverload("base64_encode_bytes", [BytesType], StringType, ([b]) =>
        b instanceof Uint8Array ? Buffer.from(b).toString("base64") : new CelError("no such overload"),
      ),
    ),
  ],
};
