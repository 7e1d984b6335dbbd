// One OpenAPI document as it is served: its JSON bytes, the ETag kube-openapi derives from them (also the
// `hash` of v3 URLs), when it last changed, and its other forms, each built on first use and then kept:
// gzip for clients that accept it, protobuf for documents that have one.
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { contentHash } from "./build-v3.js";

const gzipAsync = promisify(gzip);

/** Bytes of one form of a document, and their gzip compression made once. */
export class DocumentBytes {
  #gzipped: Promise<Buffer> | undefined;

  constructor(readonly bytes: Buffer) {}

  gzipped(): Promise<Buffer> {
    this.#gzipped ??= gzipAsync(this.bytes);
    return this.#gzipped;
  }
}

export class ServedDocument {
  readonly json: DocumentBytes;
  /** Upper-case hex sha512 of the JSON bytes; the protobuf form shares it, told apart by `Vary: Accept`. */
  readonly etag: string;
  #protobuf: DocumentBytes | undefined;

  constructor(
    json: string,
    readonly lastModified: Date,
    private readonly encodeProtobuf?: () => Uint8Array,
  ) {
    this.json = new DocumentBytes(Buffer.from(json));
    this.etag = contentHash(this.json.bytes);
  }

  /** The protobuf form, undefined for documents served as JSON only. */
  protobuf(): DocumentBytes | undefined {
    if (this.encodeProtobuf === undefined) return undefined;
    this.#protobuf ??= new DocumentBytes(Buffer.from(this.encodeProtobuf()));
    return this.#protobuf;
  }
}
