// What the client SDK tests share: a kapi server with typed clients for configmaps, deployments and
// namespaces, a namespace per test, a TCP proxy whose connections a test can cut, and polling.

import type { AddressInfo } from "node:net";
import { connect, createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll } from "vitest";
import type { Deployment, DeploymentList } from "../../generated/apps/v1/types.js";
import type { ConfigMap, ConfigMapList, Namespace, NamespaceList } from "../../generated/core/v1/types.js";
import { type RunningServer, type StartServerOptions, startServer } from "../../runtime/index.js";
import { ApiClient, type ApiClientOptions, ResourceClient } from "../../sdk/index.js";
import { eventually as pollUntil } from "../runtime/controllers/controller-harness.js";

export interface TypedClients {
  api: ApiClient;
  configMaps: ResourceClient<ConfigMap, ConfigMapList, true>;
  deployments: ResourceClient<Deployment, DeploymentList, true>;
  namespaces: ResourceClient<Namespace, NamespaceList, false>;
}

export function typedClients(api: ApiClient): TypedClients {
  return {
    api,
    configMaps: new ResourceClient<ConfigMap, ConfigMapList, true>(api, {
      group: "",
      version: "v1",
      resource: "configmaps",
      kind: "ConfigMap",
      listKind: "ConfigMapList",
      namespaced: true,
    }),
    deployments: new ResourceClient<Deployment, DeploymentList, true>(api, {
      group: "apps",
      version: "v1",
      resource: "deployments",
      kind: "Deployment",
      listKind: "DeploymentList",
      namespaced: true,
    }),
    namespaces: new ResourceClient<Namespace, NamespaceList, false>(api, {
      group: "",
      version: "v1",
      resource: "namespaces",
      kind: "Namespace",
      listKind: "NamespaceList",
      namespaced: false,
    }),
  };
}

export interface ClientServer extends TypedClients {
  server: RunningServer;
  /** Clients whose connections go through a proxy the test can cut. */
  proxied(options?: ApiClientOptions): Promise<TypedClients & { proxy: TcpProxy }>;
  /** A new namespace, named after `prefix`. */
  namespace(prefix: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * A server without the kube-root-ca.crt publisher, so that a test's namespace holds only its configmaps, and
 * without the deployment controller, so that a deployment changes only when a test writes it.
 */
export async function startClientServer(options: StartServerOptions = {}): Promise<ClientServer> {
  const server = await startServer({ controllers: { rootCa: false, deployments: false }, ...options });
  const clients = typedClients(ApiClient.fromKubeconfig({ text: server.kubeconfig }));
  const proxies: TcpProxy[] = [];
  let namespaces = 0;
  return {
    ...clients,
    server,
    proxied: async (apiOptions = {}) => {
      const target = new URL(server.url);
      const proxy = await TcpProxy.start(Number(target.port));
      proxies.push(proxy);
      const text = server.kubeconfig.replace(server.url, `${target.protocol}//127.0.0.1:${proxy.port}`);
      return { ...typedClients(ApiClient.fromKubeconfig({ text, ...apiOptions })), proxy };
    },
    namespace: async (prefix) => {
      const name = `${prefix}-${++namespaces}`;
      await clients.namespaces.create({ metadata: { name } }, {});
      return name;
    },
    close: async () => {
      for (const proxy of proxies) await proxy.close();
      await server.close();
    },
  };
}

/** A server started before the calling file's tests and closed after them; the getter gives it. */
export function serverPerFile(options: StartServerOptions = {}): () => ClientServer {
  let started: ClientServer | undefined;
  beforeAll(async () => {
    started = await startClientServer(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  return () => {
    if (started === undefined) throw new Error("the server starts before the tests");
    return started;
  };
}

/** What `promise` rejects with; fails when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("the call succeeded");
}

/** A TCP proxy to a local port: `drop()` cuts every open connection, `block()` refuses new ones. */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private blocked = false;

  private constructor(private readonly server: Server) {}

  static async start(targetPort: number): Promise<TcpProxy> {
    const server = createServer();
    const proxy = new TcpProxy(server);
    server.on("connection", (client) => proxy.forward(client, targetPort));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** How many connections are open. */
  get connections(): number {
    return this.sockets.size / 2;
  }

  drop(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  block(blocked = true): void {
    this.blocked = blocked;
  }

  async close(): Promise<void> {
    this.drop();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private forward(client: Socket, targetPort: number): void {
    if (this.blocked) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, "127.0.0.1");
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.sockets.add(from);
      from.pipe(to);
      from.on("error", () => to.destroy());
      from.on("close", () => {
        this.sockets.delete(from);
        to.destroy();
      });
    }
  }
}

/** Polls `check` until it stops throwing. */
export function eventually<R>(check: () => R | Promise<R>, timeoutMs = 10_000): Promise<R> {
  return pollUntil(check, timeoutMs);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
