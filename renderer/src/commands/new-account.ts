// "New account…" from anywhere (the command palette): the account list opens its form once it is on
// screen. The request waits here until the list takes it, so it survives the route change.

import { ref } from 'vue';

/** Whether a new account's form was asked for and not opened yet. */
export const newAccountAsked = ref(false);

/** Asks the account list to open its "New account" form (the caller goes to the list). */
export function askNewAccount(): void {
  newAccountAsked.value = true;
}
