// The Node authorizer as the server runs it: over a graph fed from the server's pods, volumes,
// attachments and slices until the context's signal aborts.
import type { ControllerContext } from "../../controllers/controller-context.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { NodeAuthorizer } from "./node-authorizer.js";
import { NodeGraph } from "./node-graph.js";
import { feedNodeGraph, type NodeGraphFeed } from "./node-graph-feed.js";

export function startNodeAuthorizer(
  api: ResourceApi,
  context: ControllerContext,
): NodeGraphFeed & { authorizer: NodeAuthorizer } {
  const graph = new NodeGraph();
  return { authorizer: new NodeAuthorizer(graph), ...feedNodeGraph(api, graph, context) };
}
