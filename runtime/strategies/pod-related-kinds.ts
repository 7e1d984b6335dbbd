// The kinds the pod, node and service subresources read besides their own: pods, nodes and endpoints for
// connection addresses, PodDisruptionBudgets for evictions. Looked up once in the generated registry.
import { builtinKind } from "../registry/kinds.js";

export const pods = builtinKind("", "v1", "pods");
export const nodes = builtinKind("", "v1", "nodes");
export const services = builtinKind("", "v1", "services");
export const endpoints = builtinKind("", "v1", "endpoints");
export const podDisruptionBudgets = builtinKind("policy", "v1", "poddisruptionbudgets");
