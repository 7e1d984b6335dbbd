import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../../runtime/index.js";
import { fetchClient, type Recording, runStep } from "./replay-steps.js";

const token = "service-account-token";
const recording = JSON.parse(
  readFileSync(new URL("../../../data/admission/service-account/reference.json", import.meta.url), "utf8"),
) as Recording;

describe("ServiceAccount admission, compared with kube-apiserver v1.36.2", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ insecure: true, adminToken: token, controllers: ["serviceaccount"] });
  });
  afterAll(async () => {
    await server.close();
  });

  it("answers every recorded request as the reference did", async () => {
    const client = fetchClient(server.url, token);
    for (const step of recording.steps) {
      const answer = await runStep(client, recording.namespace, step);
      expect({ note: step.note, answer }).toEqual({ note: step.note, answer: step.answer });
    }
  });
});
