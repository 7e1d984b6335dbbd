// metav1.Time on the wire: RFC 3339 in UTC with whole seconds.
export function formatTime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
