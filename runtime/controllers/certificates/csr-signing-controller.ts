// kube's csrsigning (kube-controller-manager `certificatesigningrequest-signing-controller`, alias
// `csrsigning`): approved, not failed, not yet signed requests to the in-tree signers get a certificate from
// the cluster signing CA (kapi's own CA), valid for spec.expirationSeconds within [10 minutes, the signing
// duration]; a request the signer refuses gets a Failed condition (SignerValidationFailure) instead.

import type { KubeObject } from "../../object/kube-object.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { formatTime } from "../../resources/timestamps.js";
import { conditionsOf, specOf, statusOf } from "../../strategies/certificate-signing-request-validation.js";
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
import { issueCertificate, type SigningCa } from "./issue-certificate.js";
import { inTreeSigners, signerProblem } from "./signer-rules.js";

/** kube-controller-manager's --cluster-signing-duration default: a year. */
export const defaultSigningDurationMs = 365 * 24 * 3_600_000;
const minimumDurationMs = 600_000;

export interface CsrSigningOptions {
  ca: SigningCa;
  /** The longest certificate issued; default a year. */
  durationMs?: number;
  now?: () => Date;
}

function hasTrueCondition(csr: KubeObject, type: string): boolean {
  return conditionsOf(csr).some((c) => c.type === type && c.status === "True");
}

/** IsCertificateRequestApproved: approved and not denied. */
export function isApproved(csr: KubeObject): boolean {
  return hasTrueCondition(csr, "Approved") && !hasTrueCondition(csr, "Denied");
}

export class CsrSigningController {
  private readonly queue: WorkQueue<string>;
  private readonly now: () => Date;
  private readonly durationMs: number;

  constructor(
    private readonly api: ResourceApi,
    private readonly options: CsrSigningOptions,
    private readonly context: ControllerContext,
  ) {
    this.now = options.now ?? (() => new Date());
    this.durationMs = options.durationMs ?? defaultSigningDurationMs;
    this.queue = new WorkQueue((name) => this.sync(name), { name: "csr signing", log: context.log });
  }

  async run(): Promise<void> {
    await queueSigningRequests(this.api, this.queue, this.context, "csr signing");
  }

  /** The granted duration: the requested one within [10 minutes, the signing duration]. */
  private grantedMs(csr: KubeObject): number {
    const seconds = specOf(csr).expirationSeconds;
    if (typeof seconds !== "number") return this.durationMs;
    return Math.min(Math.max(seconds * 1000, minimumDurationMs), this.durationMs);
  }

  private async sync(name: string): Promise<undefined> {
    const csr = await readSigningRequest(this.api, name);
    if (csr === undefined) return undefined;
    const status = statusOf(csr);
    if (typeof status.certificate === "string" && status.certificate !== "") return undefined;
    if (!isApproved(csr) || hasTrueCondition(csr, "Failed")) return undefined;
    const spec = specOf(csr);
    const signerName = String(spec.signerName ?? "");
    if (!inTreeSigners.has(signerName)) return undefined;
    const request = parsedRequest(name, spec);
    const usages = usagesOf(spec);
    const problem = signerProblem(signerName, request, usages);
    if (problem === undefined) {
      const certificate = issueCertificate(this.options.ca, request, usages, this.grantedMs(csr), this.now());
      status.certificate = Buffer.from(certificate).toString("base64");
    } else {
      const failed = {
        type: "Failed",
        status: "True",
        reason: "SignerValidationFailure",
        message: problem,
        lastUpdateTime: formatTime(this.now()),
      };
      status.conditions = [...conditionsOf(csr), failed];
    }
    csr.status = status;
    try {
      await this.api.update({ kind: certificateSigningRequests, name, subresource: "status" }, csr);
    } catch (error) {
      if (statusCode(error) !== 404) throw error;
    }
    return undefined;
  }
}
