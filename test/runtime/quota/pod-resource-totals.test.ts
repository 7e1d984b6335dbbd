import { describe, expect, it } from "vitest";
import { podResourceTotals } from "../../../runtime/quota/pod-resource-totals.js";
import { formatQuantity } from "../../../runtime/validation/quantity-arithmetic.js";

const texts = (list: ReturnType<typeof podResourceTotals>) =>
  Object.fromEntries([...list].map(([name, q]) => [name, formatQuantity(q)]));

describe("kube's PodRequests and PodLimits", () => {
  it("sums containers, keeps the largest init step, counts sidecars alongside", () => {
    const spec = {
      containers: [{ resources: { requests: { cpu: "100m" } } }, { resources: { requests: { cpu: "200m" } } }],
      initContainers: [
        { resources: { requests: { cpu: "1" } } },
        { restartPolicy: "Always", resources: { requests: { cpu: "50m", memory: "1Mi" } } },
      ],
    };
    expect(texts(podResourceTotals(spec, "requests"))).toEqual({ cpu: "1", memory: "1Mi" });
  });

  it("takes pod-level resources over the containers' sum, then adds the overhead", () => {
    const spec = {
      resources: { requests: { cpu: "1" }, limits: { cpu: "2" } },
      containers: [{ resources: { requests: { cpu: "300m", memory: "64Mi" } } }],
      overhead: { cpu: "100m", memory: "10Mi" },
    };
    expect(texts(podResourceTotals(spec, "requests"))).toEqual({ cpu: "1100m", memory: "74Mi" });
    // Limits get the overhead only where a limit is set.
    expect(texts(podResourceTotals(spec, "limits"))).toEqual({ cpu: "2100m" });
  });
});
