// The run-time errors of the standard library, worded as cel-go words them: Kubernetes returns these
// texts to users in validation messages. Each call makes a new error, so the interpreter may attach
// the failing expression to it.
import { CelError } from "../../common/values.js";

const withMessage = (message: string) => (): CelError => new CelError(message);

export const noSuchOverload = withMessage("no such overload");
export const intOverflow = withMessage("integer overflow");
export const uintOverflow = withMessage("unsigned integer overflow");
export const divisionByZero = withMessage("division by zero");
export const modulusByZero = withMessage("modulus by zero");
export const timestampOverflow = withMessage("timestamp overflow");
export const nanNotOrdered = withMessage("NaN values cannot be ordered");

/** `type conversion error from 'string' to 'int'`: names are cel-go's runtime type names. */
export function conversionError(from: string, to: string): CelError {
  return new CelError(`type conversion error from '${from}' to '${to}'`);
}
