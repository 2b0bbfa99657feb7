// The search terms of every entry, sorted: a prefix is a range of them, found by binary search,
// so that a search touches the entries it finds rather than every record. Patched term by term
// after small writes, merged after large ones. Shared by the account index and the engagement
// index (engagement-index.ts).

/** What the terms read of an entry: its search terms. */
export interface Searchable {
  readonly search: readonly string[];
}

const byTerm = <E>(a: [string, E], b: [string, E]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** Up to this many rows in one write, the terms are patched one by one; past it, merged in one pass. */
const PATCH_LIMIT = 8;

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

  /**
   * Entries replaced: `olds` leave (their terms go), `nexts` come (their terms are added). A few
   * are patched term by term; more (a sync's page) are merged in one pass over the terms, so that
   * the next keystroke finds them sorted rather than sorting every entry's terms again.
   */
  replace(olds: readonly E[], nexts: readonly E[]): void {
    if (!this.sorted) return;
    if (olds.length + nexts.length > PATCH_LIMIT) return this.merge(olds, nexts);
    for (const old of olds) {
      for (const term of old.search) {
        let at = this.lowerBound(term);
        while (at < this.terms.length && this.terms[at] === term && this.owners[at] !== old) at++;
        if (this.owners[at] !== old) return this.reset(); // never expected: sorted again
        this.terms.splice(at, 1);
        this.owners.splice(at, 1);
      }
    }
    for (const next of nexts) {
      for (const term of next.search) {
        const at = this.lowerBound(term);
        this.terms.splice(at, 0, term);
        this.owners.splice(at, 0, next);
      }
    }
  }

  private merge(olds: readonly E[], nexts: readonly E[]): void {
    const gone = new Set(olds);
    const added: [string, E][] = [];
    for (const entry of nexts) for (const term of entry.search) added.push([term, entry]);
    added.sort(byTerm);
    const terms: string[] = [];
    const owners: E[] = [];
    let j = 0;
    for (let i = 0; i < this.terms.length; i++) {
      const term = this.terms[i]!;
      if (gone.has(this.owners[i]!)) continue;
      for (; j < added.length && added[j]![0] < term; j++) {
        terms.push(added[j]![0]);
        owners.push(added[j]![1]);
      }
      terms.push(term);
      owners.push(this.owners[i]!);
    }
    for (; j < added.length; j++) {
      terms.push(added[j]![0]);
      owners.push(added[j]![1]);
    }
    this.terms = terms;
    this.owners = owners;
  }

  private sort(): void {
    const pairs: [string, E][] = [];
    for (const entry of this.all()) for (const term of entry.search) pairs.push([term, entry]);
    pairs.sort(byTerm);
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
