// How many items a section holds, as an advisor says it: "1 policy", "3 policies", "No family
// members" (never "3 insurance" or "0 family": the section's title is no count noun).

import type { SectionForm } from '@shared/section-forms/form.ts';

/** Sections whose item is no count noun: an employment is counted in jobs. */
const COUNT_NOUNS: Readonly<Record<string, [one: string, many: string]>> = {
  employment: ['job', 'jobs'],
};

/** The English plural of a section's item: `policy` → `policies`, `cash account` → `cash accounts`. */
export function pluralOf(noun: string): string {
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(noun)) return `${noun}es`;
  return `${noun}s`;
}

export function itemCount(n: number, form: Pick<SectionForm, 'path' | 'item'>): string {
  const [one, many] = COUNT_NOUNS[form.path] ?? [form.item, pluralOf(form.item)];
  if (n === 0) return `No ${many}`;
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
