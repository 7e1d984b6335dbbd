// kube's csrapproving (kube-controller-manager `certificatesigningrequest-approving-controller`, alias
// `csrapproving`): a pending kubelet client certificate request (signer
// kubernetes.io/kube-apiserver-client-kubelet, a valid node client request) is approved when the authorizer
// lets its requester `create` `certificatesigningrequests/selfnodeclient` (renewing its own certificate: the
// requester is the certificate's CN) or `certificatesigningrequests/nodeclient` in certificates.k8s.io, as
// the SubjectAccessReview kube's controller creates would answer. The Approved condition goes through the
// approval subresource.

import type { Authorizer } from "../../access/authorizer.js";
import type { UserInfo } from "../../access/user-info.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { conditionsOf, specOf, statusOf } from "../../strategies/certificate-signing-request-validation.js";
import { asObject } from "../../validation/walk.js";
import { statusCode } from "../api-errors.js";
import type { ControllerContext } from "../controller-context.js";
import { WorkQueue } from "../work-queue.js";
import {
  certificateSigningRequests,
  parsedRequest,
  queueSigningRequests,
  readSigningRequest,
  usagesOf,
} from "./csr-sync.js";
import { kubeletClientProblem, kubeletClientSigner } from "./signer-rules.js";

interface Recognizer {
  /** The subresource the requester needs `create` on. */
  permission: string;
  message: string;
  /** Whether it applies beyond being a node client request. */
  applies(requester: string, commonName: string): boolean;
}

const recognizers: readonly Recognizer[] = [
  {
    permission: "selfnodeclient",
    message: "Auto approving self kubelet client certificate after SubjectAccessReview.",
    applies: (requester, commonName) => requester === commonName,
  },
  {
    permission: "nodeclient",
    message: "Auto approving kubelet client certificate after SubjectAccessReview.",
    applies: () => true,
  },
];

export interface CsrApproverOptions {
  /** The server's authorizer, read when a request is decided (it may be built after the controllers). */
  authorizer: () => Authorizer;
}

function texts(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** The requester as the CSR records it: the user a SubjectAccessReview of its spec asks about. */
function requesterOf(spec: Record<string, unknown>): UserInfo {
  const extra = asObject(spec.extra);
  return {
    name: typeof spec.username === "string" ? spec.username : "",
    groups: texts(spec.groups),
    ...(typeof spec.uid === "string" && spec.uid !== "" ? { uid: spec.uid } : {}),
    ...(extra === undefined ? {} : { extra: Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, texts(v)])) }),
  };
}

export class CsrApprovingController {
  private readonly queue: WorkQueue<string>;

  constructor(
    private readonly api: ResourceApi,
    private readonly options: CsrApproverOptions,
    private readonly context: ControllerContext,
  ) {
    this.queue = new WorkQueue((name) => this.sync(name), { name: "csr approving", log: context.log });
  }

  async run(): Promise<void> {
    await queueSigningRequests(this.api, this.queue, this.context, "csr approving");
  }

  private async allowed(requester: UserInfo, subresource: string): Promise<boolean> {
    const decision = await this.options.authorizer().authorize({
      user: requester,
      verb: "create",
      resourceRequest: true,
      apiGroup: "certificates.k8s.io",
      apiVersion: "*",
      resource: "certificatesigningrequests",
      subresource,
      namespace: "",
      name: "",
      path: "",
    });
    return decision.decision === "allow";
  }

  private async sync(name: string): Promise<undefined> {
    const csr = await readSigningRequest(this.api, name);
    if (csr === undefined) return undefined;
    const status = statusOf(csr);
    if (typeof status.certificate === "string" && status.certificate !== "") return undefined;
    // Decided already: approved or denied, whatever the condition's status.
    if (conditionsOf(csr).some((c) => c.type === "Approved" || c.type === "Denied")) return undefined;
    const spec = specOf(csr);
    const request = parsedRequest(name, spec);
    if (spec.signerName !== kubeletClientSigner) return undefined;
    const usages = usagesOf(spec);
    if (kubeletClientProblem(request, usages) !== undefined) return undefined;
    const requester = requesterOf(spec);
    for (const recognizer of recognizers) {
      if (!recognizer.applies(requester.name, request.commonName)) continue;
      if (!(await this.allowed(requester, recognizer.permission))) continue;
      const approved = {
        type: "Approved",
        status: "True",
        reason: "AutoApproved",
        message: recognizer.message,
      };
      csr.status = { ...status, conditions: [...conditionsOf(csr), approved] };
      try {
        await this.api.update({ kind: certificateSigningRequests, name, subresource: "approval" }, csr);
      } catch (error) {
        if (statusCode(error) !== 404) throw new Error(`error updating approval for csr: ${(error as Error).message}`);
      }
      return undefined;
    }
    return undefined;
  }
}
