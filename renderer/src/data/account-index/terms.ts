// The search terms of every entry, sorted: a prefix is a range of them, found by binary search,
// so that a search touches the entries it finds rather than every record. Patched term by term
// after small writes, sorted again after large ones. Shared by the account index and the
// engagement index (engagement-index.ts).

/** What the terms read of an entry: its search terms. */
export interface Searchable {
  readonly search: readonly string[];
}

/** Past this many rows in one write, the terms are sorted again when next searched rather than patched. */
const PATCH_LIMIT = 256;

export class SearchTerms<E extends Searchable> {
  private terms: string[] = [];
  private owners: E[] = [];
  private sorted = false;

  constructor(private readonly all: () => Iterable<E>) {}

  /** Drops the sorted terms: they are sorted again from every entry when next searched. */
  reset(): void {
    this.sorted = false;
    this.terms = [];
    this.owners = [];
  }

  /** An entry replaced (`old`, `next` or both absent for an add or a removal), within a write of `size` rows. */
  replace(old: E | undefined, next: E | undefined, size: number): void {
    if (!this.sorted) return;
    if (size > PATCH_LIMIT) return this.reset();
    for (const term of old?.search ?? []) {
      let at = this.lowerBound(term);
      while (at < this.terms.length && this.terms[at] === term && this.owners[at] !== old) at++;
      if (this.owners[at] !== old) return this.reset(); // never expected: sorted again
      this.terms.splice(at, 1);
      this.owners.splice(at, 1);
    }
    for (const term of next?.search ?? []) {
      const at = this.lowerBound(term);
      this.terms.splice(at, 0, term);
      this.owners.splice(at, 0, next!);
    }
  }

  private sort(): void {
    const pairs: [string, E][] = [];
    for (const entry of this.all()) for (const term of entry.search) pairs.push([term, entry]);
    pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.terms = pairs.map((p) => p[0]);
    this.owners = pairs.map((p) => p[1]);
    this.sorted = true;
  }

  private lowerBound(term: string): number {
    let [lo, hi] = [0, this.terms.length];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.terms[mid]! < term) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Calls `found` for each entry with a term starting with `prefix` (once per such term), in the terms' order. */
  starting(prefix: string, found: (entry: E, term: string) => void): void {
    if (!this.sorted) this.sort();
    for (let at = this.lowerBound(prefix); at < this.terms.length && this.terms[at]!.startsWith(prefix); at++)
      found(this.owners[at]!, this.terms[at]!);
  }

  /** Calls `found` for each entry with the term `term` itself. */
  equal(term: string, found: (entry: E) => void): void {
    if (!this.sorted) this.sort();
    for (let at = this.lowerBound(term); at < this.terms.length && this.terms[at] === term; at++)
      found(this.owners[at]!);
  }
}
