// How the local search reads a name or an e-mail, and what is typed into it: case, accents and
// punctuation ignored, so that "obrien" finds O'Brien and "alvarez" finds Álvarez. `foldForSearch`
// is the one normalisation: the account index (data/accounts.ts) and the queries that read it both
// go through it, and so must any other index of the same names.

/**
 * A text as the search compares it: letters without their accents, lower case, digits kept,
 * punctuation dropped (`o'brien` → `obrien`, `ann.lee@x.com` → `annleexcom`), runs of white space
 * as one space, trimmed.
 */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * What is typed, as the search looks it up: folded (`foldForSearch`). A text of punctuation alone
 * folds to nothing; it is then looked up lower-cased as typed, so it finds what holds it rather
 * than everything.
 */
export function searchQuery(typed: string | undefined): string {
  const trimmed = typed?.trim() ?? '';
  return foldForSearch(trimmed) || trimmed.toLowerCase();
}
