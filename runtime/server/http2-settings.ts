// kube-apiserver's HTTP/2 server settings (k8s.io/apiserver's secure_serving.go on golang.org/x/net/http2),
// as Node's http2 module takes them. What a client sees in the server's SETTINGS frame and first
// WINDOW_UPDATE is the same as from kube-apiserver: at most 100 concurrent streams (or
// --http2-max-streams-per-connection), 256 KiB stream windows and frames, a connection window of
// 256 KiB per stream, and a header list of Go's MaxHeaderBytes (1 MiB) plus 32 bytes for each of 10 fields.
import type { Settings } from "node:http2";

/** kube-apiserver's flags for HTTP/2 serving. */
export interface Http2Serving {
  /** `--disable-http2-serving`: ALPN offers http/1.1 alone. */
  disabled?: boolean;
  /** `--http2-max-streams-per-connection`; 0 or absent: kube-apiserver's 100. */
  maxStreamsPerConnection?: number;
  /** `--goaway-chance`: the fraction of HTTP/2 requests whose connection then gets a GOAWAY (0 to 0.02). */
  goawayChance?: number;
}

/** kube-apiserver's check of `--goaway-chance`; its error text, or undefined when the value is allowed. */
export function goawayChanceError(chance: number): string | undefined {
  return chance >= 0 && chance <= 0.02 ? undefined : "--goaway-chance can not be less than 0 or greater than 0.02";
}

/** At least 99% of serialized objects are smaller: most POST bodies fit one frame and one stream window. */
const resourceBody99Percentile = 256 * 1024;
/** kube-apiserver's default (the value golang.org/x/net's client assumes before it reads SETTINGS). */
const defaultMaxConcurrentStreams = 100;
/** Go's server advertises MaxHeaderBytes plus room for the fields' HPACK overhead (10 fields × 32 bytes). */
const maxHeaderListSize = (1 << 20) + 10 * 32;
/** Node's own allowance (10 MB) for what its sessions buffer besides the upload window. */
const nodeSessionMemoryMb = 10;

export interface Http2ServerSettings {
  settings: Settings;
  /** The connection's receive window, raised from 64 KiB at each session's start (Go's MaxUploadBufferPerConnection). */
  connectionWindowSize: number;
  /** Node's bound on what one session may hold, in MB: the whole connection window fits, plus Node's default. */
  maxSessionMemoryMb: number;
}

export function http2ServerSettings(serving: Http2Serving): Http2ServerSettings {
  const maxStreams =
    serving.maxStreamsPerConnection !== undefined && serving.maxStreamsPerConnection > 0
      ? serving.maxStreamsPerConnection >>> 0
      : defaultMaxConcurrentStreams;
  // Go multiplies in int32: a product past 2^31 wraps, and x/net then keeps its 1 MiB default.
  const product = Math.imul(resourceBody99Percentile, maxStreams);
  const connectionWindowSize = product >= 65_535 ? product : 1 << 20;
  return {
    settings: {
      maxConcurrentStreams: maxStreams,
      initialWindowSize: resourceBody99Percentile,
      maxFrameSize: resourceBody99Percentile,
      maxHeaderListSize,
    },
    connectionWindowSize,
    maxSessionMemoryMb: Math.ceil(connectionWindowSize / (1 << 20)) + nodeSessionMemoryMb,
  };
}
