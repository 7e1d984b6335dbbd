// TracingConfiguration (apiserver.config.k8s.io): component-base's ValidateTracingConfiguration, which the
// schema cannot declare: the sampling rate's range and the endpoint as Go's url.Parse and gRPC's naming read it.
import { type FieldError, invalid } from "../errors/field-error.js";
import { goQuote } from "../errors/go-format.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";

const maxSamplingRatePerMillion = 1_000_000;
const schemes = ["dns", "unix", "unix-abstract"];

/** The scheme Go's url.Parse finds in `raw`, or the error it gives (the cases an endpoint meets). */
function parseUrl(raw: string): { scheme: string } | { error: string } {
  const fail = (reason: string) => ({ error: `parse ${goQuote(raw)}: ${reason}` });
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(raw);
  if (raw.startsWith(":")) return fail("missing protocol scheme");
  const scheme = match?.[1]?.toLowerCase() ?? "";
  const rest = match === null ? raw : raw.slice(match[0].length);
  if (rest.startsWith("//")) {
    const authority = rest.slice(2).split(/[/?#]/)[0] ?? "";
    const host = authority.slice(authority.lastIndexOf("@") + 1);
    if (host.startsWith("[") && !host.includes("]")) return fail("missing ']' in host");
    const port = host.startsWith("[")
      ? host.slice(host.indexOf("]") + 1)
      : host.slice(host.indexOf(":") >= 0 ? host.indexOf(":") : host.length);
    if (port !== "" && !/^:[0-9]*$/.test(port)) return fail(`invalid port ${goQuote(port)} after host`);
  }
  return { scheme };
}

function validateEndpoint(value: string): FieldError[] {
  const endpoint = value.includes("//") ? value : `dns://${value}`;
  const parsed = parseUrl(endpoint);
  if ("error" in parsed) return [invalid("endpoint", endpoint, parsed.error)];
  if (schemes.includes(parsed.scheme)) return [];
  return [
    invalid(
      "endpoint",
      endpoint,
      `unsupported scheme: ${parsed.scheme}.  Options are none, dns, unix, or unix-abstract.  See https://github.com/grpc/grpc/blob/master/doc/naming.md`,
    ),
  ];
}

function validateTracingConfiguration(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const rate = obj.samplingRatePerMillion;
  if (typeof rate === "number") {
    if (rate < 0) errs.push(invalid("samplingRatePerMillion", rate, "sampling rate must be positive"));
    if (rate > maxSamplingRatePerMillion) {
      errs.push(
        invalid("samplingRatePerMillion", rate, "sampling rate per million must be less than or equal to one million"),
      );
    }
  }
  if (typeof obj.endpoint === "string") errs.push(...validateEndpoint(obj.endpoint));
  return errs;
}

export const strategy: Strategy = { validate: validateTracingConfiguration };
