import { describe, expect, it } from "vitest";
import { parseFieldSelector } from "../../../runtime/selection/field-selector.js";
import {
  type FieldLabels,
  fieldSetOf,
  formatConversionError,
  labelOf,
  refusedFieldLabel,
  selectableFieldValue,
} from "../../../runtime/selection/selectable-field-set.js";

function parsed(s: string) {
  const r = parseFieldSelector(s);
  if (!r.ok) throw new Error(r.error);
  return r.selector;
}

const podIP = { label: "status.podIP", jsonPaths: [".status.podIPs[0].ip", ".status.podIP"] };
const hostNetwork = { label: "spec.hostNetwork", default: "false" };
const succeeded = { label: "status.successful", jsonPaths: [".status.succeeded"], default: "0" };

describe("selectable field values", () => {
  it("reads a plain label at its own dotted path", () => {
    expect(selectableFieldValue({ spec: { nodeName: "n1" } }, "spec.nodeName")).toBe("n1");
    expect(selectableFieldValue({}, "spec.nodeName")).toBe("");
  });

  it("takes the first path that gives a non-empty value", () => {
    expect(selectableFieldValue({ status: { podIPs: [{ ip: "10.0.0.1" }], podIP: "10.0.0.9" } }, podIP)).toBe(
      "10.0.0.1",
    );
    expect(selectableFieldValue({ status: { podIP: "10.0.0.9" } }, podIP)).toBe("10.0.0.9");
    // An index past the end of the list does not apply; the next path is tried.
    expect(selectableFieldValue({ status: { podIPs: [], podIP: "10.0.0.9" } }, podIP)).toBe("10.0.0.9");
    expect(selectableFieldValue({ status: {} }, podIP)).toBe("");
  });

  it("prints booleans and integers as Go does, and falls back to the zero value's text", () => {
    expect(selectableFieldValue({ spec: { hostNetwork: true } }, hostNetwork)).toBe("true");
    expect(selectableFieldValue({ spec: {} }, hostNetwork)).toBe("false");
    expect(selectableFieldValue({ status: { succeeded: 3 } }, succeeded)).toBe("3");
    expect(selectableFieldValue({ status: { succeeded: 0 } }, succeeded)).toBe("0");
    expect(selectableFieldValue({}, succeeded)).toBe("0");
  });

  it("reads a label with no paths as empty, and a label read elsewhere from there", () => {
    expect(selectableFieldValue({ status: { podIPs: [{ ip: "a" }] } }, { label: "status.podIPs", jsonPaths: [] })).toBe(
      "",
    );
    expect(
      selectableFieldValue({ spec: { nodeName: "n1" } }, { label: "spec.host", jsonPaths: [".spec.nodeName"] }),
    ).toBe("n1");
  });

  it("evaluates any other JSONPath, taking its first result", () => {
    const ready = { label: "status.ready", jsonPaths: ['.status.conditions[?(@.type=="Ready")].status'] };
    const node = {
      status: {
        conditions: [
          { type: "MemoryPressure", status: "False" },
          { type: "Ready", status: "True" },
        ],
      },
    };
    expect(selectableFieldValue(node, ready)).toBe("True");
    expect(selectableFieldValue({ status: { conditions: "x" } }, ready)).toBe("");
    const last = { label: "status.last", jsonPaths: [".status.podIPs[-1].ip"], default: "none" };
    expect(selectableFieldValue({ status: { podIPs: [{ ip: "a" }, { ip: "b" }] } }, last)).toBe("b");
    expect(selectableFieldValue({ status: { podIPs: [] } }, last)).toBe("none");
  });

  it("reads non-scalar values as empty", () => {
    expect(selectableFieldValue({ spec: { ports: [1] } }, { label: "spec.ports", jsonPaths: [".spec.ports"] })).toBe(
      "",
    );
    expect(selectableFieldValue({ spec: { ratio: 0.5 } }, { label: "spec.ratio" })).toBe("");
  });

  it("builds the field set under each label, with name and namespace", () => {
    const pod = {
      metadata: { name: "p", namespace: "ns" },
      spec: { nodeName: "n1" },
      status: { podIPs: [{ ip: "10.0.0.1" }] },
    };
    expect(fieldSetOf(pod, ["spec.nodeName", podIP, hostNetwork])).toEqual({
      "metadata.name": "p",
      "metadata.namespace": "ns",
      "spec.nodeName": "n1",
      "status.podIP": "10.0.0.1",
      "spec.hostNetwork": "false",
    });
    expect(labelOf(podIP)).toBe("status.podIP");
    expect(labelOf("type")).toBe("type");
  });
});

describe("field label conversion", () => {
  const pod: FieldLabels = {
    selectableFields: ["spec.nodeName", podIP],
    fieldLabelConversion: { error: "field label not supported: %s", namespace: true },
  };
  const node: FieldLabels = {
    selectableFields: [{ label: "spec.unschedulable", default: "false" }],
    fieldLabelConversion: { error: "field label not supported: %s", namespace: false },
  };
  const job: FieldLabels = {
    selectableFields: [succeeded],
    fieldLabelConversion: { error: "field label %q not supported for Job", namespace: true },
  };
  const configMap: FieldLabels = { selectableFields: [] };

  it("takes name, namespace and the kind's labels", () => {
    expect(refusedFieldLabel(parsed("metadata.name=a,metadata.namespace=b,status.podIP=c"), pod)).toBeUndefined();
    expect(refusedFieldLabel(parsed("metadata.namespace=b"), configMap)).toBeUndefined();
    expect(refusedFieldLabel(parsed("status.successful=1"), job)).toBeUndefined();
  });

  it("words a refusal as the kind's conversion does, naming the first label in sorted order", () => {
    expect(refusedFieldLabel(parsed("spec.nodeName=a,spec.foo=b,spec.bar=c"), pod)).toBe(
      "field label not supported: spec.bar",
    );
    expect(refusedFieldLabel(parsed("status.active=1"), job)).toBe('field label "status.active" not supported for Job');
    expect(refusedFieldLabel(parsed("spec.nodeName=a"), configMap)).toBe(
      '"spec.nodeName" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
  });

  it("refuses metadata.namespace where the conversion does not take it", () => {
    expect(refusedFieldLabel(parsed("metadata.namespace=x"), node)).toBe(
      "field label not supported: metadata.namespace",
    );
    expect(refusedFieldLabel(parsed("metadata.name=n,spec.unschedulable=true"), node)).toBeUndefined();
  });

  it("formats %s and %q as Go does", () => {
    expect(formatConversionError("field label not supported: %s", 'a"b')).toBe('field label not supported: a"b');
    expect(formatConversionError("field label %q not supported for Job", 'a"b')).toBe(
      'field label "a\\"b" not supported for Job',
    );
  });
});
