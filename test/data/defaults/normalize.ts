// What varies between two servers answering the same create: identities, times, versions, field ownership and
// the requesting user's name as a CertificateSigningRequest records it. Everything else is the kind's defaults.

type Json = Record<string, unknown>;

/** The namespace namespaced objects of objects.yaml are created in. */
export const defaultsNamespace = "d-defaults";

/** The key an object is recorded under in expected.json. */
export function recordKey(obj: Json): string {
  const name = (obj.metadata as Json | undefined)?.name;
  return `${String(obj.apiVersion)}/${String(obj.kind)}/${String(name)}`;
}

const serverTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** The value with the object's uid (a job's generated selector) and times the server set replaced. */
function maskGenerated(value: unknown, uid: unknown): unknown {
  if (typeof value === "string") return value === uid ? "<uid>" : serverTime.test(value) ? "<time>" : value;
  if (Array.isArray(value)) return value.map((v) => maskGenerated(v, uid));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskGenerated(v, uid)]));
  }
  return value;
}

export function normalizeCreated(obj: Json): Json {
  const copy = maskGenerated(obj, (obj.metadata as Json | undefined)?.uid) as Json;
  const meta = copy.metadata as Json | undefined;
  if (meta !== undefined) {
    for (const key of ["uid", "creationTimestamp", "resourceVersion", "managedFields"]) delete meta[key];
  }
  if (copy.kind === "CertificateSigningRequest") {
    const spec = copy.spec as Json;
    for (const key of ["username", "uid", "groups", "extra"]) if (key in spec) spec[key] = `<${key}>`;
  }
  return copy;
}
