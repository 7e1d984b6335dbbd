// The request target read as Go's net/http reads it for kube-apiserver, so that hostile or unusual targets get
// kube's answers: the path is percent-decoded (`/api%2Fv1` is `/api/v1`), absolute-form targets are served by
// their path, and a bad escape in the path is a 400; query pairs that Go cannot decode (a bad escape, a
// semicolon) are dropped, not refused. Node hands the target over as raw text and `new URL()` throws on some
// of it, so nothing here may throw anything but a StatusError.
import { badRequest } from "../errors/status-error.js";

export interface RequestTarget {
  /** The decoded path (Go's URL.Path); empty for targets without one (`http://`, `host:443`). */
  path: string;
  /** The query pairs Go's url.ParseQuery keeps, on a URL whose pathname is the path re-encoded. */
  url: URL;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

/** Go's url unescaping: `%XX` to its byte, `+` to a space in query components; undefined for a bad escape. */
function goUnescape(text: string, plusIsSpace: boolean): string | undefined {
  if (!text.includes("%") && !(plusIsSpace && text.includes("+"))) return text;
  const bytes: number[] = [];
  const raw = Buffer.from(text, "utf8");
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as number;
    if (c === 0x25) {
      const hi = hexValue(raw[i + 1] ?? -1);
      const lo = hexValue(raw[i + 2] ?? -1);
      if (hi < 0 || lo < 0) return undefined;
      bytes.push(hi * 16 + lo);
      i += 2;
    } else bytes.push(plusIsSpace && c === 0x2b ? 0x20 : c);
  }
  return Buffer.from(bytes).toString("utf8");
}

/** url.ParseQuery, keeping the pairs it can read and dropping the others as kube's handlers do. */
function parseQuery(query: string): URLSearchParams {
  const params = new URLSearchParams();
  for (const pair of query.split("&")) {
    if (pair === "" || pair.includes(";")) continue;
    const eq = pair.indexOf("=");
    const key = goUnescape(eq < 0 ? pair : pair.slice(0, eq), true);
    const value = goUnescape(eq < 0 ? "" : pair.slice(eq + 1), true);
    if (key !== undefined && value !== undefined) params.append(key, value);
  }
  return params;
}

/** Splits an absolute-form target (`http://host/path?q`) or CONNECT's authority form into its path and query. */
function originForm(method: string, target: string): string | undefined {
  if (target.startsWith("/") || target === "*") return target;
  if (method === "CONNECT" && !target.includes("/")) return "";
  const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.exec(target);
  if (scheme === null) return undefined;
  const rest = target.slice(scheme[0].length);
  if (!rest.startsWith("//")) return rest.startsWith("/") ? rest : "";
  const pathStart = rest.slice(2).search(/[/?]/);
  return pathStart < 0 ? "" : rest.slice(2 + pathStart);
}

/** Reads the request line's target; a target Go's server refuses is a 400 with the reason. */
export function parseRequestTarget(method: string, target: string): RequestTarget {
  const form = originForm(method, target);
  if (form === undefined) throw badRequest(`invalid request URI ${JSON.stringify(target)}`);
  const q = form.indexOf("?");
  const rawPath = q < 0 ? form : form.slice(0, q);
  const path = goUnescape(rawPath, false);
  if (path === undefined) throw badRequest(`invalid URL escape in ${JSON.stringify(rawPath)}`);
  const url = new URL("http://kapi");
  url.pathname = path;
  const search = parseQuery(q < 0 ? "" : form.slice(q + 1)).toString();
  if (search !== "") url.search = search;
  return { path, url };
}
