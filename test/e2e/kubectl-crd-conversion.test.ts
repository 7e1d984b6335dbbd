// A CustomResourceDefinition with two versions converted by a local HTTPS webhook, through kubectl: objects
// created at the storage version v1 are read at v2 (and the other way round) with the webhook renaming
// spec.cronSpec to spec.schedule, each version printing its own columns; a webhook that fails is reported as
// kube reports it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ConversionWebhook,
  type Reply,
  type Review,
  renamingConverter,
  startConversionWebhook,
} from "../runtime/crd/conversion/conversion-webhook-server.js";
import { haveKubectl, type KubectlSession, startKubectlSession } from "./kubectl-session.js";

const definition = (webhook: ConversionWebhook) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: ["v1"]
      clientConfig:
        url: ${webhook.origin}/convert
        caBundle: ${webhook.caBundle}
  versions:
    - name: v1
      served: true
      storage: true
      additionalPrinterColumns:
        - name: Cron
          type: string
          jsonPath: .spec.cronSpec
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                cronSpec:
                  type: string
    - name: v2
      served: true
      storage: false
      additionalPrinterColumns:
        - name: Schedule
          type: string
          jsonPath: .spec.schedule
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                schedule:
                  type: string
`;

describe.skipIf(!haveKubectl)("CustomResourceDefinition conversion through a webhook with kubectl", () => {
  let s: KubectlSession;

  beforeAll(async () => {
    s = await startKubectlSession({ controllers: false });
  }, 60_000);

  afterAll(async () => {
    await s?.close();
  });

  // The helper closes its webhooks after each test, so the whole story runs in one.
  it("converts between the storage version and a served one", async () => {
    let reply: (review: Review) => Reply = renamingConverter();
    const webhook = await startConversionWebhook((review) => reply(review));
    await s.kubectl("apply", "-f", s.file("crd.yaml", definition(webhook)));
    await s.kubectl("wait", "--for", "condition=established", "--timeout=10s", "crd/crontabs.stable.example.com");

    const v1 =
      "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: nightly\nspec:\n  cronSpec: '0 0 * * *'\n";
    expect(await s.kubectl("apply", "-f", s.file("v1.yaml", v1))).toBe("crontab.stable.example.com/nightly created\n");
    expect(
      await s.kubectl("get", "crontabs.v2.stable.example.com", "nightly", "-o", "jsonpath={.apiVersion} {.spec}"),
    ).toBe('stable.example.com/v2 {"schedule":"0 0 * * *"}');
    expect(await s.kubectl("get", "crontabs.v2.stable.example.com")).toBe("NAME      SCHEDULE\nnightly   0 0 * * *\n");
    expect(await s.kubectl("get", "crontabs.v1.stable.example.com")).toBe("NAME      CRON\nnightly   0 0 * * *\n");
    const asked = webhook.reviews.map((r) => [r.apiVersion, r.request.desiredAPIVersion]);
    expect(asked).toContainEqual(["apiextensions.k8s.io/v1", "stable.example.com/v2"]);
    expect(webhook.paths.every((p) => p === "/convert?timeout=30s")).toBe(true);

    // Written at v2, stored at v1.
    const v2 =
      "apiVersion: stable.example.com/v2\nkind: CronTab\nmetadata:\n  name: hourly\nspec:\n  schedule: '0 * * * *'\n";
    expect(await s.kubectl("create", "-f", s.file("v2.yaml", v2))).toBe("crontab.stable.example.com/hourly created\n");
    expect(await s.kubectl("get", "crontabs.v1.stable.example.com", "hourly", "-o", "jsonpath={.spec.cronSpec}")).toBe(
      "0 * * * *",
    );
    const crd = JSON.parse(await s.kubectl("get", "crd", "crontabs.stable.example.com", "-o", "json"));
    expect(crd.status.storedVersions).toEqual(["v1"]);

    // A webhook refusing the conversion: kube answers 500 with no reason and the webhook's message.
    const weekly =
      "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: weekly\nspec:\n  cronSpec: '0 0 * * 0'\n";
    await s.kubectl("create", "-f", s.file("weekly.yaml", weekly));
    reply = renamingConverter((answer) => {
      (answer.response as Record<string, unknown>).result = { status: "Failure", message: "cannot convert" };
    });
    const refused =
      "Error from server: conversion webhook for stable.example.com/v1, Kind=CronTab failed: cannot convert\n";
    expect(await s.kubectlError("get", "crontabs.v2.stable.example.com", "weekly")).toBe(refused);
    // kube converts on every read: an object read at v2 before is not served from an earlier answer.
    const reviews = webhook.reviews.length;
    expect(await s.kubectlError("get", "crontabs.v2.stable.example.com", "nightly")).toBe(refused);
    expect(webhook.reviews.length).toBeGreaterThan(reviews);
    // Reads at the storage version need no webhook.
    expect(await s.kubectl("get", "crontabs.v1.stable.example.com", "nightly", "-o", "name")).toBe(
      "crontab.stable.example.com/nightly\n",
    );
  });
});
