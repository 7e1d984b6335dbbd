// Media types of OpenAPI operations, in the order kube-apiserver lists them in OpenAPI v2.
export const objectMediaTypes = [
  "application/json",
  "application/yaml",
  "application/vnd.kubernetes.protobuf",
  "application/cbor",
];
export const listMediaTypes = [
  ...objectMediaTypes,
  "application/json;stream=watch",
  "application/vnd.kubernetes.protobuf;stream=watch",
  "application/cbor-seq",
];
export const textMediaTypes = ["text/plain", ...objectMediaTypes];
export const patchMediaTypes = [
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/strategic-merge-patch+json",
  "application/apply-patch+yaml",
  "application/apply-patch+cbor",
];
export const responseDescriptions: Record<string, string> = {
  "200": "OK",
  "201": "Created",
  "202": "Accepted",
  "401": "Unauthorized",
};
