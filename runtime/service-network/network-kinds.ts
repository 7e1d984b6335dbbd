// The kinds the service network reads and writes by their table records (ResourceApi serves them as the
// server's registry has them).
import { builtinKind } from "../registry/kinds.js";

export const services = builtinKind("", "v1", "services");
export const endpoints = builtinKind("", "v1", "endpoints");
export const endpointSlices = builtinKind("discovery.k8s.io", "v1", "endpointslices");
export const ipAddresses = builtinKind("networking.k8s.io", "v1", "ipaddresses");
export const serviceCIDRs = builtinKind("networking.k8s.io", "v1", "servicecidrs");
