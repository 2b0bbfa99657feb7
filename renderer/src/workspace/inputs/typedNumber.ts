// The behaviour of a number input (amounts, counts, years, rates): the text the user types is read
// by the one reader of typed numbers (shared/typed-numbers.ts); a value it understands is emitted,
// a text it refuses never is: the field keeps its value and says why, through its frame
// (FieldInput provides `NUMBER_PROBLEM`), which also keeps the form from saving meanwhile.

import { inject, ref, watch, type InjectionKey } from 'vue';
import { numberMarks, readNumber, writeNumber, type NumberOptions } from '@shared/typed-numbers.ts';

/**
 * How a number input tells its field that its text is refused (`message`), or no longer
 * (`null`). `quiet`: the text may be unfinished (`1,2` on the way to `1,234`): the form may not
 * save it, but the message waits until the user leaves the field or tries to save.
 */
export type NumberProblemReport = (message: string | null, quiet: boolean) => void;
export const NUMBER_PROBLEM: InjectionKey<NumberProblemReport> = Symbol('number-problem');

/** A text that typing may still turn into a number: it ends in a mark, or in a short group. */
const unfinished = (text: string): boolean => /([.,\s'’\-−]|[.,'’\s]\d{1,2})$/.test(text.trim() + ' ');

export function useTypedNumber(
  options: () => NumberOptions,
  value: () => number | null,
  emitValue: (value: number | null) => void,
  suffix: () => string = () => '',
) {
  const report = inject(NUMBER_PROBLEM, () => undefined);
  const write = (v: number | null) => {
    const written = writeNumber(v, options());
    return written && suffix() ? `${written}${suffix()}` : written;
  };
  const text = ref(write(value()));
  let last = value();

  // A value set from outside (another record, a reset) replaces what is shown.
  watch(value, (v) => {
    if (v === last) return;
    last = v;
    text.value = write(v);
    report(null, false);
  });

  const keeps = () => {
    const v = value();
    return v === null ? 'Until then the field stays empty.' : `Until then it keeps ${write(v)}.`;
  };

  function read(typed: string, final: boolean): number | null | undefined {
    const reading = readNumber(typed, options());
    if (!reading.ok) {
      report(`${reading.problem}: ${reading.todo}. ${keeps()}`, !final && unfinished(typed));
      return undefined;
    }
    report(null, false);
    if (reading.value !== last) {
      last = reading.value;
      emitValue(reading.value);
    }
    return reading.value;
  }

  /** The text as `tidy` last grouped it, while the user goes on typing at its end. */
  let tidied: string | null = null;

  /**
   * What to read of a text typed at the end of one `tidy` grouped: a digit added or the last one
   * taken away leaves the marks it put in the wrong places (`$4,2000`), so they are dropped. Any
   * other edit (a mark typed, a change in the middle) is read as typed.
   */
  function source(input: HTMLInputElement): string {
    const typed = input.value;
    const was = tidied;
    tidied = null;
    if (was === null || input.selectionStart !== typed.length) return typed;
    const added = typed.startsWith(was) && /^\d$/.test(typed.slice(was.length));
    const removed = was.startsWith(typed) && was.length === typed.length + 1;
    if (!added && !removed) return typed;
    const group = numberMarks(options().locale).group;
    return typed
      .split(group)
      .join('')
      .replace(/[\s\u00a0\u202f'’]/g, '');
  }

  /**
   * While typing at the end of a plain whole number, it is shown grouped as it grows
   * (`$420,000`); a decimal mark, shorthand or a caret elsewhere leaves the text as typed.
   */
  function tidy(input: HTMLInputElement, v: number | null): void {
    if (v === null || input.selectionStart !== input.value.length) return;
    const typed = input.value;
    if (/\p{L}/u.test(typed.replace(/\p{Sc}/gu, '')) || typed.includes(numberMarks(options().locale).decimal))
      return;
    const written = writeNumber(v, options());
    // A currency written after the amount (`420.000 $`) would stand in the way of the next digit.
    const shown = /\d$/.test(written) ? written : writeNumber(v, { ...options(), currency: undefined });
    if (readNumber(shown, options()).ok) text.value = input.value = tidied = shown;
  }

  return {
    text,
    onInput(event: Event) {
      const input = event.target as HTMLInputElement;
      text.value = input.value;
      const v = read(source(input), false);
      if (v !== undefined) tidy(input, v);
    },
    /** Leaving the field: what it holds is read once more (and said, if refused), then shown tidy. */
    onBlur(event: Event) {
      const input = event.target as HTMLInputElement;
      text.value = input.value;
      const v = read(source(input), true);
      if (v !== undefined) text.value = write(v);
    },
  };
}
