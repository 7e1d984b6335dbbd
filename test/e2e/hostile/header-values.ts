// Hostile headers that node's client will still send: Accept and Content-Type with odd parameters,
// impersonation headers without a user or with keys that do not decode, Authorization that is not a
// credential, and a few that change how a request is framed or answered.
import type { Prng } from "./prng.js";

export const acceptValues: readonly string[] = [
  "application/json",
  "application/yaml",
  "application/vnd.kubernetes.protobuf",
  "application/json;as=Table;v=v1;g=meta.k8s.io",
  "application/json;as=Table;v=v1beta1;g=meta.k8s.io",
  "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io",
  "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io",
  "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io",
  "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io",
  "application/yaml;as=PartialObjectMetadata;v=v1beta1;g=meta.k8s.io",
  "application/json;as=Bogus;v=v1;g=meta.k8s.io",
  "application/json;as=Table;v=v9;g=meta.k8s.io",
  "application/json;as=Table;g=meta.k8s.io",
  "application/json;as=Table",
  "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
  "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList",
  "application/json;stream=watch",
  "application/vnd.kubernetes.protobuf;stream=watch",
  "application/json;includeObject=Object;as=Table;v=v1;g=meta.k8s.io",
  "application/json;includeObject=Bogus;as=Table;v=v1;g=meta.k8s.io",
  "application/cbor",
  "application/cbor-seq",
  "*/*",
  "*/*;q=0",
  "application/*",
  "*/json",
  "text/html",
  "text/plain",
  "application/json;q=abc",
  "application/json;q=-1",
  "application/json;q=1.5",
  "application/json;q=0, application/yaml;q=0",
  "application/json;",
  "application/json;=",
  "application/json;a",
  'application/json;a="unterminated',
  "a/b/c",
  "json",
  "",
  ";;;",
  ",,,",
  "/",
  "application/json;charset=utf-16",
  "application/apply-patch+yaml",
  "application/json-patch+json",
];

export const contentTypeValues: readonly string[] = [
  "application/json",
  "application/yaml",
  "application/vnd.kubernetes.protobuf",
  "application/json; charset=utf-8",
  "application/json; charset=utf-16",
  "application/json;charset=",
  "application/yaml; charset=latin1",
  "application/json;as=Table;v=v1;g=meta.k8s.io",
  "application/vnd.kubernetes.protobuf;stream=watch",
  "application/json, application/yaml",
  "application/cbor",
  "application/apply-patch+cbor",
  "application/apply-patch+yaml",
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/strategic-merge-patch+json",
  "text/plain",
  "text/yaml",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/*",
  "*/*",
  "",
  ";",
  "a/b/c",
  "application/json;=",
  "application/json; q=0",
];

const authorizations: readonly ((prng: Prng) => string)[] = [
  () => "Bearer",
  () => "Bearer ",
  () => "Bearer  two-spaces",
  () => "bearer lowercase",
  () => "Basic Zm9vOmJhcg==",
  () => "Basic !!!",
  () => "Negotiate abc",
  () => "Bearer a.b.c",
  () => "Bearer ...",
  () => "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.",
  // A JWT with an issuer and a key id, signed with nothing: the service account authenticator looks closer.
  () =>
    `Bearer ${b64({ alg: "RS256", kid: "x".repeat(50) })}.${b64({
      iss: "https://kubernetes.default.svc.cluster.local",
      sub: "system:serviceaccount:default:default",
      aud: ["x"],
      exp: 1e12,
    })}.c2ln`,
  () => `Bearer ${b64({ alg: "ES256" })}.${b64([1, 2, 3])}.AAAA`,
  () => `Bearer ${b64({ alg: "HS256" })}.${Buffer.from("{{{").toString("base64url")}.x`,
  () => "Bearer abcdef.0123456789abcdef",
  () => "Bearer 0000000000000000000000000000000000000000",
  (prng) => `Bearer ${"x".repeat(prng.size([1000], [8000]))}`,
  () => "Bearer é",
];

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

const impersonations: readonly ((prng: Prng) => Record<string, string | string[]>)[] = [
  () => ({ "Impersonate-User": "h4-nobody" }),
  () => ({ "Impersonate-User": "" }),
  () => ({ "Impersonate-Group": "system:masters" }),
  () => ({ "Impersonate-Uid": "1234" }),
  () => ({ "Impersonate-Extra-scopes": "x" }),
  () => ({ "Impersonate-User": "h4-nobody", "Impersonate-Group": ["a", "b", ""] }),
  () => ({ "Impersonate-User": "h4-nobody", "Impersonate-Extra-%zz": "x" }),
  () => ({ "Impersonate-User": "h4-nobody", "Impersonate-Extra-%E2%98%83": "snow" }),
  () => ({ "Impersonate-User": "h4-nobody", "Impersonate-Extra-": "empty key" }),
  () => ({ "Impersonate-User": "system:serviceaccount:h4:sa", "Impersonate-Group": "x" }),
  () => ({ "Impersonate-User": "system:serviceaccount:" }),
  () => ({ "Impersonate-User": "system:node:x" }),
  () => ({ "Impersonate-User": "system:anonymous" }),
  (prng) => ({ "Impersonate-User": "u".repeat(prng.size([300], [8000])) }),
  (prng) => ({
    "Impersonate-User": "h4-nobody",
    "Impersonate-Group": Array.from({ length: prng.size([10], [500]) }, (_, i) => `g${i}`),
  }),
  () => ({ "Impersonate-User": "é\u00ff" }),
];

const others: readonly ((prng: Prng) => Record<string, string | string[]>)[] = [
  () => ({ "Content-Encoding": "gzip" }),
  () => ({ "Content-Encoding": "br, identity" }),
  () => ({ "Accept-Encoding": "gzip" }),
  () => ({ "Accept-Encoding": "gzip;q=abc, *" }),
  () => ({ Expect: "100-continue" }),
  () => ({ Expect: "bogus" }),
  () => ({ "If-None-Match": '"x"' }),
  () => ({ "If-Match": "*" }),
  () => ({ "User-Agent": "é\u00ff/1.0" }),
  (prng) => ({ "User-Agent": "u".repeat(prng.size([200], [8000])) }),
  () => ({ "User-Agent": "" }),
  () => ({ "Audit-ID": "x".repeat(300) }),
  () => ({ "X-Remote-User": "system:admin", "X-Remote-Group": "system:masters" }),
  () => ({ "X-Forwarded-For": "1.2.3.4, not-an-ip, ::1" }),
  () => ({ "Accept-Language": ";;;" }),
  () => ({ Connection: "Upgrade", Upgrade: "websocket" }),
  () => ({ Connection: "Upgrade", Upgrade: "SPDY/3.1" }),
  () => ({ Connection: "close" }),
  () => ({ Range: "bytes=0-1" }),
  (prng) => Object.fromEntries(Array.from({ length: prng.size([50], [200]) }, (_, i) => [`X-Many-${i}`, "v"])),
];

export type HeaderFamily = "accept" | "content-type" | "authorization" | "impersonation" | "other";

/** Headers of one family, hostile. */
export function hostileHeaders(prng: Prng, family: HeaderFamily): Record<string, string | string[]> {
  switch (family) {
    case "accept":
      return {
        Accept: prng.chance(0.1)
          ? Array.from({ length: prng.size([50], [1000]) }, () => prng.pick(acceptValues)).join(", ")
          : prng.pick(acceptValues),
      };
    case "content-type":
      return { "Content-Type": prng.pick(contentTypeValues) };
    case "authorization":
      return { Authorization: prng.pick(authorizations)(prng) };
    case "impersonation":
      return prng.pick(impersonations)(prng);
    default:
      return prng.pick(others)(prng);
  }
}
