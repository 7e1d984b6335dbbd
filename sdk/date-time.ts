// RFC 3339 timestamps as metav1.Time accepts them: shared by the server's schema formats and the SDK's exec
// credentials (an ExecCredential's expirationTimestamp is a metav1.Time).

const dateTime = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):?(\d{2}))$/;

/** RFC 3339 as metav1.Time accepts it, with calendar ranges checked. */
export function isDateTime(s: string): boolean {
  const m = dateTime.exec(s);
  if (!m) return false;
  const [, , month, day, hour, minute, second, offH, offM] = m.map(Number);
  return (
    month !== undefined &&
    month >= 1 &&
    month <= 12 &&
    day !== undefined &&
    day >= 1 &&
    day <= 31 &&
    (hour ?? 0) <= 23 &&
    (minute ?? 0) <= 59 &&
    (second ?? 0) <= 60 &&
    (offH === undefined || Number.isNaN(offH) || offH <= 23) &&
    (offM === undefined || Number.isNaN(offM) || offM <= 59)
  );
}
