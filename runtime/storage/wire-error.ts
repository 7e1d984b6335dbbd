// Storage failures across a store link: the typed errors the API layer maps to Status codes are rebuilt as
// the same classes on the far side, with the fields their messages and mappings read.
import {
  CompactedError,
  ConflictError,
  FutureRevisionError,
  KeyExistsError,
  NotFoundError,
  StorageError,
  StoreClosedError,
} from "./storage-errors.js";
import type { WireError } from "./store-link.js";

export function toWireError(error: unknown): WireError {
  if (error instanceof KeyExistsError || error instanceof NotFoundError)
    return { name: error.name, message: error.message, key: error.key };
  if (error instanceof ConflictError)
    return {
      name: error.name,
      message: error.message,
      current: error.current,
      expectedModRevision: error.expectedModRevision,
    };
  if (error instanceof CompactedError)
    return {
      name: error.name,
      message: error.message,
      compactRevision: error.compactRevision,
      requestedRevision: error.requestedRevision,
    };
  if (error instanceof FutureRevisionError)
    return {
      name: error.name,
      message: error.message,
      requestedRevision: error.requestedRevision,
      currentRevision: error.currentRevision,
    };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: String(error) };
}

export function fromWireError(wire: WireError): Error {
  switch (wire.name) {
    case "KeyExistsError":
      return new KeyExistsError(wire.key ?? "");
    case "NotFoundError":
      return new NotFoundError(wire.key ?? "");
    case "ConflictError":
      if (wire.current !== undefined) return new ConflictError(wire.current, wire.expectedModRevision ?? 0);
      break;
    case "CompactedError":
      return new CompactedError(wire.compactRevision ?? 0, wire.requestedRevision ?? 0);
    case "FutureRevisionError":
      return new FutureRevisionError(wire.requestedRevision ?? 0, wire.currentRevision ?? 0);
    case "StoreClosedError":
      return new StoreClosedError();
    case "RangeError":
      return new RangeError(wire.message);
    case "TypeError":
      return new TypeError(wire.message);
  }
  return new StorageError(wire.message);
}
