// A list's query kept in the address (the route's query), so that coming back from an item finds
// the list as it was left: each field read when the list opens, all written back as they change,
// leaving out the empty ones and those at their default (a plain list has a plain address).
// Once the list is being left, its query is no longer written: vue-router drops a navigation still
// under way when a newer one starts, so a search that settles just after a click on a result
// (typed, then clicked within the search's pause) would cancel the click's navigation.
import { onScopeDispose } from 'vue';
import { onBeforeRouteLeave, useRoute, useRouter } from 'vue-router';
import type { ListSort } from './useListSort.ts';

/** `defaults`: the fields that have one (a filter, the sort); the others default to empty. */
export function useAddressQuery<D extends Record<string, string>>(defaults: D) {
  const route = useRoute();
  const router = useRouter();
  /** A navigation away from the list has begun (and has not failed). */
  let leaving = false;
  onBeforeRouteLeave(() => {
    leaving = true;
  });
  onScopeDispose(
    router.afterEach((_to, _from, failure) => {
      if (failure) leaving = false;
    }),
  );

  /** The field as the address has it, or its default ('' without one). */
  function read(name: string): string {
    const value = route.query[name];
    return typeof value === 'string' ? value : (defaults[name] ?? '');
  }
  /** A field with a default: one of `allowed`, else the default (an address edited by hand, or stale). */
  function readOneOf<V extends string>(name: keyof D & string, allowed: readonly V[]): V {
    const value = read(name);
    return (allowed as readonly string[]).includes(value) ? (value as V) : (defaults[name] as string as V);
  }
  /** A sort field: one of `keys`, up or down (`key` / `-key`), else its default. */
  function readSort<K extends string>(name: keyof D & string, keys: readonly K[]): ListSort<K> {
    const value = read(name);
    return (keys as readonly string[]).includes(value.replace(/^-/, ''))
      ? (value as ListSort<K>)
      : (defaults[name] as string as ListSort<K>);
  }
  /** Replaces the address's query by these fields, leaving out the empty ones and those at their default. */
  function write(fields: Record<string, string | null | undefined>) {
    if (leaving) return;
    const query: Record<string, string> = {};
    for (const [name, value] of Object.entries(fields))
      if (value && value !== defaults[name]) query[name] = value;
    void router.replace({ query });
  }
  return { read, readOneOf, readSort, write };
}
