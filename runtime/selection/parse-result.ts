// What parsing a selector yields: the selector, or the message kube-apiserver answers 400 with.

export type ParseResult<T> = { ok: true; selector: T } | { ok: false; error: string };
