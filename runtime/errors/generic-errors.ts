// The answers kube-apiserver gives when no handler takes a request: worded as its NewGenericServerResponse.
import { StatusError } from "./status-error.js";

export function pathNotFound(): StatusError {
  return new StatusError(404, "NotFound", "the server could not find the requested resource");
}

export function methodNotAllowed(): StatusError {
  return new StatusError(405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
}
