// String and number formats the schemas name (OpenAPI `format`), checked as kube-apiserver decodes them.
import { isDateTime } from "../../sdk/date-time.js";

const int32Min = -(2 ** 31);
const int32Max = 2 ** 31 - 1;
// 2^63 is the first value a float64 cannot hold in an int64; smaller ones round into range.
const int64Limit = 2 ** 63;

const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Standard base64 with padding, as Go's encoding of []byte. */
export function isBase64(s: string): boolean {
  return base64.test(s);
}

/** Whether a string value satisfies a string format; unknown formats pass. */
export function stringFormatOk(format: string, s: string): boolean {
  switch (format) {
    case "date-time":
      return isDateTime(s);
    case "byte":
      return isBase64(s);
    default:
      return true;
  }
}

/** Whether an integer fits the Go integer type the format names. */
export function integerFormatOk(format: string, n: number): boolean {
  switch (format) {
    case "int32":
      return n >= int32Min && n <= int32Max;
    case "int64":
      return n > -int64Limit - 1 && n < int64Limit;
    default:
      return true;
  }
}
