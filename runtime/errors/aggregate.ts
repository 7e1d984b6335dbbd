// The text of Go's utilerrors.NewAggregate(errs).Error(), which Kubernetes shows wherever several failures
// become one: a single message as it is, several (each once, in order) in brackets.

export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? (unique[0] ?? "") : `[${unique.join(", ")}]`;
}
