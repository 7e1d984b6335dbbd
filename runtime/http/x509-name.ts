// An X.509 distinguished name (RFC 5280 Name) read as its attributes, as a certificate's or a certification
// request's subject is read for validation and for the user it names.
import { children, contentOf, decodeOid, decodeString } from "./der.js";

export interface SubjectAttribute {
  /** The attribute type's OID (2.5.4.3 common name, 2.5.4.10 organization, …). */
  type: string;
  /** The value of a string-typed attribute; undefined for other types. */
  value: string | undefined;
}

/** The attributes of a DER-encoded Name in their order, every relative name flattened. */
export function nameAttributes(name: Buffer): SubjectAttribute[] {
  return children(name).flatMap((relativeName) =>
    children(relativeName.encoded).map((attribute) => {
      const [type, value] = children(attribute.encoded);
      return {
        type: type === undefined ? "" : decodeOid(contentOf(type.encoded)),
        value: value === undefined ? undefined : decodeString(value.tag, contentOf(value.encoded)),
      };
    }),
  );
}
