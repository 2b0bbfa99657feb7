// Sorting a list by one key of its interface, up or down, in the `key` / `-key` form the queries
// take: from a sort control or a column header (the same header again turns the order around).
import { computed, type Ref } from 'vue';

export type ListSort<K extends string> = K | `-${K}`;

/**
 * `descendingFirst`: the keys an advisor reads biggest or newest first (dates, scores); a key
 * newly chosen starts that way, the others (names, titles) A to Z.
 */
export function useListSort<K extends string>(sort: Ref<ListSort<K>>, descendingFirst: readonly K[]) {
  const sortKey = computed(() => sort.value.replace(/^-/, '') as K);
  const descending = computed(() => sort.value.startsWith('-'));
  function setSort(key: K, desc: boolean) {
    sort.value = desc ? `-${key}` : key;
  }
  function chooseSortKey(key: K) {
    setSort(key, descendingFirst.includes(key));
  }
  /** A column header sorts by its key; again, the other way. */
  function headerSort(key: K) {
    if (sortKey.value === key) setSort(key, !descending.value);
    else chooseSortKey(key);
  }
  function toggleDirection() {
    setSort(sortKey.value, !descending.value);
  }
  return { sortKey, descending, chooseSortKey, headerSort, toggleDirection };
}
