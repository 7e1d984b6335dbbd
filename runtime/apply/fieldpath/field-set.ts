// A set of field paths stored as a trie, as structured-merge-diff's fieldpath.Set: at each node the members
// (paths ending here) and the children (paths continuing), both sorted by path element. Being a member and
// having children are independent: a list item can be owned as a whole and also have owned fields.
//
// Operations return new sets that may share unchanged subtrees with their inputs, so `insert` is only for a
// set being built that nothing else holds yet.
import { comparePathElements, type Path, type PathElement, serializePathElement } from "./path-element.js";

export interface FieldSetChild {
  readonly element: PathElement;
  readonly set: FieldSet;
}

/** Index of the first entry not below `pe`, by binary search over a sorted list. */
function lowerBound<T>(list: readonly T[], pe: PathElement, elementOf: (entry: T) => PathElement): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (comparePathElements(elementOf(list[mid] as T), pe) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export const sameElement = (pe: PathElement): PathElement => pe;
export const childElement = (c: FieldSetChild): PathElement => c.element;

/** Walks two sorted lists together, calling `onLeft`, `onRight` or `onBoth` for each element in order. */
export function mergeWalk<A, B>(
  left: readonly A[],
  right: readonly B[],
  leftElement: (a: A) => PathElement,
  rightElement: (b: B) => PathElement,
  visit: { onLeft?: (a: A) => void; onRight?: (b: B) => void; onBoth?: (a: A, b: B) => void },
): void {
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    const c =
      i >= left.length
        ? 1
        : j >= right.length
          ? -1
          : comparePathElements(leftElement(left[i] as A), rightElement(right[j] as B));
    // Indices move outside the optional calls, whose arguments are skipped when there is no callback.
    const a = left[i] as A;
    const b = right[j] as B;
    if (c <= 0) i++;
    if (c >= 0) j++;
    if (c < 0) visit.onLeft?.(a);
    else if (c > 0) visit.onRight?.(b);
    else visit.onBoth?.(a, b);
  }
}

export class FieldSet {
  private memberList: PathElement[];
  private childList: FieldSetChild[];
  /**
   * Elements added while the set is built that sort before its last one: kept aside and merged in, sorted,
   * when the set is next read, so that building from unsorted input is not a splice per element.
   */
  private looseMembers: PathElement[] = [];
  private readonly looseChildren = new Map<string, FieldSetChild>();

  constructor(members: PathElement[] = [], children: FieldSetChild[] = []) {
    this.memberList = members;
    this.childList = children;
  }

  static of(...paths: Path[]): FieldSet {
    const set = new FieldSet();
    for (const path of paths) set.insert(path);
    return set;
  }

  get members(): readonly PathElement[] {
    return this.sortedMembers();
  }

  get children(): readonly FieldSetChild[] {
    return this.sortedChildren();
  }

  /** Adds a path; its parents are not added. The empty path (the whole object) is never owned. */
  insert(path: Path): void {
    if (path.length === 0) return;
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) node = node.descend(path[i] as PathElement);
    node.addMember(path[path.length - 1] as PathElement);
  }

  addMember(pe: PathElement): void {
    const last = this.memberList.at(-1);
    if (last === undefined || comparePathElements(last, pe) < 0) this.memberList.push(pe);
    else if (comparePathElements(last, pe) !== 0) this.looseMembers.push(pe);
  }

  /** The child set under `pe`, created when missing. */
  descend(pe: PathElement): FieldSet {
    const last = this.childList.at(-1);
    const order = last === undefined ? -1 : comparePathElements(last.element, pe);
    if (order === 0) return (last as FieldSetChild).set;
    if (order < 0) {
      const set = new FieldSet();
      this.childList.push({ element: pe, set });
      return set;
    }
    const found = this.childList[lowerBound(this.childList, pe, childElement)];
    if (found !== undefined && comparePathElements(found.element, pe) === 0) return found.set;
    const key = serializePathElement(pe);
    const loose = this.looseChildren.get(key);
    if (loose !== undefined) return loose.set;
    const set = new FieldSet();
    this.looseChildren.set(key, { element: pe, set });
    return set;
  }

  private sortedMembers(): PathElement[] {
    if (this.looseMembers.length === 0) return this.memberList;
    const loose = this.looseMembers.sort(comparePathElements);
    this.looseMembers = [];
    const merged: PathElement[] = [];
    mergeWalk(this.memberList, loose, sameElement, sameElement, {
      onLeft: (a) => merged.push(a),
      onRight: (b) => {
        const previous = merged.at(-1);
        if (previous === undefined || comparePathElements(previous, b) !== 0) merged.push(b);
      },
      onBoth: (a) => merged.push(a),
    });
    this.memberList = merged;
    return merged;
  }

  private sortedChildren(): FieldSetChild[] {
    if (this.looseChildren.size === 0) return this.childList;
    const loose = [...this.looseChildren.values()].sort((a, b) => comparePathElements(a.element, b.element));
    this.looseChildren.clear();
    const merged: FieldSetChild[] = [];
    mergeWalk(this.childList, loose, childElement, childElement, {
      onLeft: (a) => merged.push(a),
      onRight: (b) => merged.push(b),
    });
    this.childList = merged;
    return merged;
  }

  hasMember(pe: PathElement): boolean {
    const found = this.members[lowerBound(this.members, pe, sameElement)];
    return found !== undefined && comparePathElements(found, pe) === 0;
  }

  child(pe: PathElement): FieldSet | undefined {
    const found = this.children[lowerBound(this.children, pe, childElement)];
    return found !== undefined && comparePathElements(found.element, pe) === 0 ? found.set : undefined;
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    let node: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1 && node !== undefined; i++) node = node.child(path[i] as PathElement);
    return node?.hasMember(path[path.length - 1] as PathElement) ?? false;
  }

  /** The paths below `pe`, without it; empty when there are none. */
  withPrefix(pe: PathElement): FieldSet {
    return this.child(pe) ?? new FieldSet();
  }

  isEmpty(): boolean {
    return this.members.length === 0 && this.children.every((c) => c.set.isEmpty());
  }

  size(): number {
    return this.members.length + this.children.reduce((n, c) => n + c.set.size(), 0);
  }

  union(other: FieldSet): FieldSet {
    const members: PathElement[] = [];
    mergeWalk(this.members, other.members, sameElement, sameElement, {
      onLeft: (a) => members.push(a),
      onRight: (b) => members.push(b),
      onBoth: (a) => members.push(a),
    });
    const children: FieldSetChild[] = [];
    mergeWalk(this.children, other.children, childElement, childElement, {
      onLeft: (a) => children.push(a),
      onRight: (b) => children.push(b),
      onBoth: (a, b) => children.push({ element: a.element, set: a.set.union(b.set) }),
    });
    return new FieldSet(members, children);
  }

  intersection(other: FieldSet): FieldSet {
    const members: PathElement[] = [];
    mergeWalk(this.members, other.members, sameElement, sameElement, { onBoth: (a) => members.push(a) });
    const children: FieldSetChild[] = [];
    mergeWalk(this.children, other.children, childElement, childElement, {
      onBoth: (a, b) => {
        const set = a.set.intersection(b.set);
        if (!set.isEmpty()) children.push({ element: a.element, set });
      },
    });
    return new FieldSet(members, children);
  }

  /** Members of this set not in `other`; a parent minus one of its children keeps the parent. */
  difference(other: FieldSet): FieldSet {
    return this.subtract(other, false);
  }

  /** Like difference, but a member of `other` also takes away everything below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    return this.subtract(other, true);
  }

  private subtract(other: FieldSet, recursive: boolean): FieldSet {
    const members: PathElement[] = [];
    mergeWalk(this.members, other.members, sameElement, sameElement, { onLeft: (a) => members.push(a) });
    const children: FieldSetChild[] = [];
    const removedWhole = (c: FieldSetChild) => recursive && other.hasMember(c.element);
    mergeWalk(this.children, other.children, childElement, childElement, {
      onLeft: (a) => {
        if (!removedWhole(a)) children.push(a);
      },
      onBoth: (a, b) => {
        if (removedWhole(a)) return;
        const set = a.set.subtract(b.set, recursive);
        if (!set.isEmpty()) children.push({ element: a.element, set });
      },
    });
    return new FieldSet(members, children);
  }

  /** Only the paths with nothing below them. */
  leaves(): FieldSet {
    const members = this.members.filter((pe) => this.child(pe) === undefined);
    return new FieldSet(
      members,
      this.children.map((c) => ({ element: c.element, set: c.set.leaves() })),
    );
  }

  equals(other: FieldSet): boolean {
    if (this.members.length !== other.members.length || this.children.length !== other.children.length) {
      return false;
    }
    for (let i = 0; i < this.members.length; i++) {
      if (comparePathElements(this.members[i] as PathElement, other.members[i] as PathElement) !== 0) return false;
    }
    for (let i = 0; i < this.children.length; i++) {
      const a = this.children[i] as FieldSetChild;
      const b = other.children[i] as FieldSetChild;
      if (comparePathElements(a.element, b.element) !== 0 || !a.set.equals(b.set)) return false;
    }
    return true;
  }

  /** Every path, in structured-merge-diff's order: a node's members, then each child's paths in turn. */
  paths(prefix: Path = []): Path[] {
    const out: Path[] = this.members.map((pe) => [...prefix, pe]);
    for (const c of this.children) for (const path of c.set.paths([...prefix, c.element])) out.push(path);
    return out;
  }
}
