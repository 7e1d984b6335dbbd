// URLs as Go's net/url parses and prints them (Parse, ParseRequestURI, EscapedPath, Hostname, Port,
// Query, String), which is what Kubernetes' `url()` CEL function exposes. Go works on bytes, so the
// parser runs on a "byte string" (one char per UTF-8 byte) and converts back at its edges; error texts
// follow Go's (`parse "…": invalid URI for request`).
import { goQuote } from "../../../errors/go-format.js";
import { parseAddr } from "./netip.js";

export interface GoURL {
  readonly scheme: string;
  readonly opaque: string;
  readonly user?: { readonly username: string; readonly password?: string };
  readonly host: string;
  readonly path: string;
  readonly rawPath: string;
  readonly omitHost: boolean;
  readonly forceQuery: boolean;
  readonly rawQuery: string;
  readonly fragment: string;
  readonly rawFragment: string;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export type URLResult = { readonly ok: true; readonly url: GoURL } | { readonly ok: false; readonly error: string };

/** A parse failure inside the parser, carrying Go's error text (in byte-string form). */
class URLError extends Error {}

type Encoding = "path" | "pathSegment" | "host" | "zone" | "userPassword" | "queryComponent" | "fragment";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The UTF-8 bytes of a string, one char per byte. */
export function toByteString(s: string): string {
  let out = "";
  for (const b of encoder.encode(s)) out += String.fromCharCode(b);
  return out;
}

/** A byte string decoded back to text (invalid UTF-8 becomes U+FFFD). */
export function fromByteString(s: string): string {
  if (!/[\x80-\xff]/.test(s)) return s;
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return decoder.decode(bytes);
}

function quote(byteString: string): string {
  return goQuote(fromByteString(byteString));
}

function isAlnum(c: string): boolean {
  return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9");
}

function isHex(c: string | undefined): boolean {
  return c !== undefined && /^[0-9a-fA-F]$/.test(c);
}

/** Go's shouldEscape: whether a byte must be %-encoded in the given part of a URL. */
function shouldEscape(c: string, mode: Encoding): boolean {
  if (isAlnum(c)) return false;
  if ((mode === "host" || mode === "zone") && "!$&'()*+,;=:[]<>\"".includes(c)) return false;
  if ("-_.~".includes(c)) return false;
  if ("$&+,/:;=?@".includes(c)) {
    switch (mode) {
      case "path":
        return c === "?";
      case "pathSegment":
        return c === "/" || c === ";" || c === "," || c === "?";
      case "userPassword":
        return c === "@" || c === "/" || c === "?" || c === ":";
      case "queryComponent":
        return true;
      case "fragment":
        return false;
    }
  }
  if (mode === "fragment" && "!()*".includes(c)) return false;
  return true;
}

function hexValue(c: string): number {
  return Number.parseInt(c, 16);
}

/** Go's unescape: decodes %XX (and + in query components), refusing malformed escapes and bad host bytes. */
function percentDecode(s: string, mode: Encoding): string {
  let escapes = 0;
  let hasPlus = false;
  for (let i = 0; i < s.length; ) {
    const c = s[i] as string;
    if (c === "%") {
      escapes++;
      if (i + 2 >= s.length || !isHex(s[i + 1]) || !isHex(s[i + 2])) {
        throw new URLError(`invalid URL escape ${quote(s.slice(i, i + 3))}`);
      }
      const triplet = s.slice(i, i + 3);
      if (mode === "host" && hexValue(s[i + 1] as string) < 8 && triplet !== "%25") {
        throw new URLError(`invalid URL escape ${quote(triplet)}`);
      }
      if (mode === "zone") {
        const v = String.fromCharCode(hexValue(s.slice(i + 1, i + 3)));
        if (triplet !== "%25" && v !== " " && shouldEscape(v, "host")) {
          throw new URLError(`invalid URL escape ${quote(triplet)}`);
        }
      }
      i += 3;
    } else {
      if (c === "+") hasPlus = mode === "queryComponent";
      else if ((mode === "host" || mode === "zone") && c.charCodeAt(0) < 0x80 && shouldEscape(c, mode)) {
        throw new URLError(`invalid character ${quote(c)} in host name`);
      }
      i++;
    }
  }
  if (escapes === 0 && !hasPlus) return s;
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === "%") {
      out += String.fromCharCode(hexValue(s.slice(i + 1, i + 3)));
      i += 2;
    } else if (c === "+") {
      out += mode === "queryComponent" ? " " : "+";
    } else {
      out += c;
    }
  }
  return out;
}

/** Go's escape: %-encodes the bytes that must be (upper-case hex), spaces as + in query components. */
function percentEncode(s: string, mode: Encoding): string {
  let out = "";
  for (const c of s) {
    if (c === " " && mode === "queryComponent") out += "+";
    else if (shouldEscape(c, mode)) out += `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;
    else out += c;
  }
  return out;
}

/** `scheme:rest` when rawURL starts with a valid scheme; `["", rawURL]` otherwise. */
function splitScheme(rawURL: string): [string, string] {
  for (let i = 0; i < rawURL.length; i++) {
    const c = rawURL[i] as string;
    if ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z")) continue;
    if ((c >= "0" && c <= "9") || c === "+" || c === "-" || c === ".") {
      if (i === 0) return ["", rawURL];
      continue;
    }
    if (c === ":") {
      if (i === 0) throw new URLError("missing protocol scheme");
      return [rawURL.slice(0, i), rawURL.slice(i + 1)];
    }
    return ["", rawURL];
  }
  return ["", rawURL];
}

function validOptionalPort(port: string): boolean {
  return port === "" || /^:[0-9]*$/.test(port);
}

function validUserinfo(s: string): boolean {
  return /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(s);
}

/** Go's parseHost: `host[:port]` or `[ipv6-literal][:port]`, unescaped; a bracketed host must be an IPv6 address. */
function parseHost(host: string): string {
  if (host.startsWith("[")) {
    const close = host.lastIndexOf("]");
    if (close < 0) throw new URLError("missing ']' in host");
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) throw new URLError(`invalid port ${quote(colonPort)} after host`);
    const literal = host.slice(1, close);
    const zone = literal.indexOf("%25");
    const unescaped =
      zone >= 0
        ? percentDecode(literal.slice(0, zone), "host") + percentDecode(literal.slice(zone), "zone")
        : percentDecode(literal, "host");
    const addr = parseAddr(fromByteString(unescaped));
    if (!addr.ok) throw new URLError(`invalid host: ${toByteString(addr.error)}`);
    if (addr.value.is4) throw new URLError("invalid IP-literal");
    return `[${unescaped}]${colonPort}`;
  }
  const colon = host.indexOf(":");
  if (colon !== -1) {
    const colonPort = host.slice(colon);
    if (!validOptionalPort(colonPort)) throw new URLError(`invalid port ${quote(colonPort)} after host`);
  }
  return percentDecode(host, "host");
}

function parseAuthority(url: Mutable<GoURL>, authority: string): void {
  const at = authority.lastIndexOf("@");
  url.host = parseHost(at < 0 ? authority : authority.slice(at + 1));
  if (at < 0) return;
  const userinfo = authority.slice(0, at);
  if (!validUserinfo(userinfo)) throw new URLError("net/url: invalid userinfo");
  const colon = userinfo.indexOf(":");
  url.user =
    colon < 0
      ? { username: percentDecode(userinfo, "userPassword") }
      : {
          username: percentDecode(userinfo.slice(0, colon), "userPassword"),
          password: percentDecode(userinfo.slice(colon + 1), "userPassword"),
        };
}

function setPath(url: Mutable<GoURL>, p: string): void {
  url.path = percentDecode(p, "path");
  url.rawPath = percentEncode(url.path, "path") === p ? "" : p;
}

/** Go's stringContainsCTLByte: a byte below space, or DEL. */
function hasControlByte(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** Go's unexported parse: viaRequest allows only absolute URLs and absolute paths. */
function parse(rawURL: string, viaRequest: boolean): Mutable<GoURL> {
  if (hasControlByte(rawURL)) throw new URLError("net/url: invalid control character in URL");
  if (rawURL === "" && viaRequest) throw new URLError("empty url");
  const url: Mutable<GoURL> = {
    scheme: "",
    opaque: "",
    host: "",
    path: "",
    rawPath: "",
    omitHost: false,
    forceQuery: false,
    rawQuery: "",
    fragment: "",
    rawFragment: "",
  };
  if (rawURL === "*") {
    url.path = "*";
    return url;
  }
  let [scheme, rest] = splitScheme(rawURL);
  url.scheme = scheme.toLowerCase();
  const question = rest.indexOf("?");
  if (rest.endsWith("?") && question === rest.length - 1) {
    url.forceQuery = true;
    rest = rest.slice(0, -1);
  } else if (question >= 0) {
    url.rawQuery = rest.slice(question + 1);
    rest = rest.slice(0, question);
  }
  if (!rest.startsWith("/")) {
    if (url.scheme !== "") {
      url.opaque = rest;
      return url;
    }
    if (viaRequest) throw new URLError("invalid URI for request");
    const slash = rest.indexOf("/");
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(":")) {
      throw new URLError("first path segment in URL cannot contain colon");
    }
  }
  if ((url.scheme !== "" || (!viaRequest && !rest.startsWith("///"))) && rest.startsWith("//")) {
    let authority = rest.slice(2);
    rest = "";
    const slash = authority.indexOf("/");
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    parseAuthority(url, authority);
  } else if (url.scheme !== "" && rest.startsWith("/")) {
    url.omitHost = true;
  }
  setPath(url, rest);
  return url;
}

function parseError(rawURL: string, e: unknown): URLResult {
  if (!(e instanceof URLError)) throw e;
  return { ok: false, error: fromByteString(`parse ${quote(rawURL)}: ${e.message}`) };
}

/** Go's url.ParseRequestURI: an absolute URI or an absolute path, the whole string (no fragment split). */
export function parseRequestURI(s: string): URLResult {
  const raw = toByteString(s);
  try {
    return { ok: true, url: parse(raw, true) };
  } catch (e) {
    return parseError(raw, e);
  }
}

/** Go's url.Parse: any URL reference; `#fragment` is split off first. */
export function parseURL(s: string): URLResult {
  const raw = toByteString(s);
  const hash = raw.indexOf("#");
  const beforeHash = hash < 0 ? raw : raw.slice(0, hash);
  let url: Mutable<GoURL>;
  try {
    url = parse(beforeHash, false);
  } catch (e) {
    return parseError(beforeHash, e);
  }
  if (hash < 0) return { ok: true, url };
  const frag = raw.slice(hash + 1);
  try {
    url.fragment = percentDecode(frag, "fragment");
  } catch (e) {
    return parseError(raw, e);
  }
  url.rawFragment = percentEncode(url.fragment, "fragment") === frag ? "" : frag;
  return { ok: true, url };
}

/** Whether s is a valid encoding in the given mode (Go's validEncoded). */
function validEncoded(s: string, mode: Encoding): boolean {
  for (const c of s) {
    if ("!$&'()*+,;=:@[]%".includes(c)) continue;
    if (shouldEscape(c, mode)) return false;
  }
  return true;
}

function escapedPathBytes(u: GoURL): string {
  if (u.rawPath !== "" && validEncoded(u.rawPath, "path")) {
    try {
      if (percentDecode(u.rawPath, "path") === u.path) return u.rawPath;
    } catch {
      // An invalid raw path falls back to escaping the path.
    }
  }
  if (u.path === "*") return "*";
  return percentEncode(u.path, "path");
}

/** Go's URL.EscapedPath. */
export function escapedPath(u: GoURL): string {
  return fromByteString(escapedPathBytes(u));
}

function splitHostPort(hostPort: string): [string, string] {
  let host = hostPort;
  let port = "";
  const colon = host.lastIndexOf(":");
  if (colon !== -1 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1);
    host = host.slice(0, colon);
  }
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  return [host, port];
}

/** Go's URL.Hostname: the host without port or IPv6 brackets. */
export function hostname(u: GoURL): string {
  return fromByteString(splitHostPort(u.host)[0]);
}

/** Go's URL.Port: the numeric port, or "". */
export function port(u: GoURL): string {
  return splitHostPort(u.host)[1];
}

export function host(u: GoURL): string {
  return fromByteString(u.host);
}

/** Go's URL.Query: repeated keys collect values in order; malformed pairs and keys with `;` are dropped. */
export function query(u: GoURL): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const pair of u.rawQuery.split("&")) {
    if (pair === "" || pair.includes(";")) continue;
    const eq = pair.indexOf("=");
    let key: string;
    let value: string;
    try {
      key = fromByteString(percentDecode(eq < 0 ? pair : pair.slice(0, eq), "queryComponent"));
      value = fromByteString(percentDecode(eq < 0 ? "" : pair.slice(eq + 1), "queryComponent"));
    } catch {
      continue;
    }
    const list = values.get(key);
    if (list) list.push(value);
    else values.set(key, [value]);
  }
  return values;
}

function escapedFragment(u: GoURL): string {
  if (u.rawFragment !== "" && validEncoded(u.rawFragment, "fragment")) {
    try {
      if (percentDecode(u.rawFragment, "fragment") === u.fragment) return u.rawFragment;
    } catch {
      // An invalid raw fragment falls back to escaping the fragment.
    }
  }
  return percentEncode(u.fragment, "fragment");
}

/** Go's URL.String: the URL reassembled, which is what two Kubernetes URL values compare by. */
export function urlString(u: GoURL): string {
  let out = u.scheme === "" ? "" : `${u.scheme}:`;
  if (u.opaque !== "") {
    out += u.opaque;
  } else {
    if (u.scheme !== "" || u.host !== "" || u.user !== undefined) {
      if (!(u.omitHost && u.host === "" && u.user === undefined)) {
        if (u.host !== "" || u.path !== "" || u.user !== undefined) out += "//";
        if (u.user !== undefined) {
          out += percentEncode(u.user.username, "userPassword");
          if (u.user.password !== undefined) out += `:${percentEncode(u.user.password, "userPassword")}`;
          out += "@";
        }
        if (u.host !== "") out += percentEncode(u.host, "host");
      }
    }
    const path = escapedPathBytes(u);
    if (path !== "" && path[0] !== "/" && u.host !== "") out += "/";
    if (out === "") {
      const slash = path.indexOf("/");
      if ((slash < 0 ? path : path.slice(0, slash)).includes(":")) out += "./";
    }
    out += path;
  }
  if (u.forceQuery || u.rawQuery !== "") out += `?${u.rawQuery}`;
  if (u.fragment !== "") out += `#${escapedFragment(u)}`;
  return fromByteString(out);
}
