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

/** What an operation answers with: an object, a list or watch stream, a named group's discovery, a connection, text. */
export type ResponseMedia = "object" | "list" | "group" | "connect" | "text";

/** The media types an operation produces. A named group's discovery route is not offered in CBOR. */
export function responseMediaTypes(media: ResponseMedia): string[] {
  switch (media) {
    case "object":
      return objectMediaTypes;
    case "list":
      return listMediaTypes;
    case "group":
      return objectMediaTypes.filter((t) => t !== "application/cbor");
    case "connect":
      return ["*/*"];
    case "text":
      return textMediaTypes;
  }
}
