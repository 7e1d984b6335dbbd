// protobufjs takes about 40 ms to load and only protobuf bodies and responses (and the OpenAPI v2 protobuf)
// need it, so it loads on first use; a require keeps that first use synchronous.
import { createRequire } from "node:module";
import type protobuf from "protobufjs";

let loaded: typeof protobuf | undefined;

export function protobufjs(): typeof protobuf {
  loaded ??= createRequire(import.meta.url)("protobufjs") as typeof protobuf;
  return loaded;
}
