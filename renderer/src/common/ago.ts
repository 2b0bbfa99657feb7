// How long ago something happened, as an advisor reads it beside "Last synced": "just now",
// "5 minutes ago", "yesterday". One wording for every screen that says it.

const words = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** `at` (ms since the epoch) as seen at `now`; a time ahead of `now` (another clock) is "just now". */
export function ago(at: number, now: number): string {
  const seconds = Math.round((now - at) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return words.format(-minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours < 24) return words.format(-hours, 'hour');
  return words.format(-Math.round(hours / 24), 'day');
}

/** "as of Nov 26, 10:20 AM": when a figure from this computer's copy was current. */
export function asOf(at: number): string {
  return `as of ${new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(at)}`;
}
