// Which team the platform has current, against the store's (issue 12). The platform answers
// for the user's CURRENT team, which another device can switch at any time: a 404, or an account
// missing from the full list, then means "out of sight", not "deleted". So before the sync takes
// either for a deletion it asks the platform (GET v2 /user, `team.id`); while the platform's team
// is not the store's, nothing is deleted or marked, nothing is sent, and the sync state says so.

import type { ApiFailure, Priority } from '@shared/api/request.ts';
import { readWire } from '@shared/wire/parse.ts';
import { User } from '@shared/wire/v2/user.ts';
import type { AdvisorDb } from '../data/db.ts';
import { recordedIdentity } from '../data/identity/recorded.ts';
import type { Send } from './send.ts';

export type TeamAnswer =
  /** The platform's current team is the store's: a 404 means what it says. */
  | { kind: 'same' }
  /** The platform's current team is another (switched on another device, say). */
  | { kind: 'moved'; team: number }
  /** Could not tell: no answer (`failure`), or a store that records no team (`failure` null). */
  | { kind: 'unknown'; failure: ApiFailure | null };

const unreadable: ApiFailure = {
  ok: false,
  kind: 'server',
  status: null,
  message: 'The platform sent a user without a current team.',
  fields: {},
  retryAfterMs: null,
};

/**
 * One per sync (shared by its push and pull engines): asks the platform which team is current and
 * remembers a move, so that the engines hold everything until the platform's team is the store's
 * again (`moved` back to null, on a later confirmation).
 */
export class TeamWatch {
  /** The platform's current team while it is not the store's; null when it is (or never asked). */
  moved: number | null = null;
  private asking: Promise<TeamAnswer> | null = null;

  constructor(
    private readonly db: AdvisorDb,
    private readonly send: Send,
    /** Hears every change of `moved` (the sync state). */
    private readonly onChange: (moved: number | null) => void = () => undefined,
  ) {}

  /** Asks the platform now; answers asked at the same time share one request. */
  confirm(priority: Priority = 'background'): Promise<TeamAnswer> {
    this.asking ??= this.ask(priority).finally(() => (this.asking = null));
    return this.asking;
  }

  private async ask(priority: Priority): Promise<TeamAnswer> {
    if (!(await recordedIdentity(this.db))) return { kind: 'unknown', failure: null };
    let result;
    try {
      result = await this.send({ api: 'v2', method: 'GET', path: '/user', priority });
    } catch (error) {
      const message = error instanceof Error ? error.message : 'The request could not be sent.';
      return { kind: 'unknown', failure: { ...unreadable, kind: 'network', message } };
    }
    if (!result.ok) return { kind: 'unknown', failure: result };
    return this.read(result.data, result.status);
  }

  /**
   * The answer a v2 `/user` read for another purpose gives (the configuration's pull), without
   * asking again; a move is remembered as when asked.
   */
  async read(user: unknown, status: number | null = null): Promise<TeamAnswer> {
    const store = await recordedIdentity(this.db);
    if (!store) return { kind: 'unknown', failure: null };
    const team = readWire(User, user)?.team?.id;
    if (typeof team !== 'number') return { kind: 'unknown', failure: { ...unreadable, status } };
    const answer: TeamAnswer = team === store.team ? { kind: 'same' } : { kind: 'moved', team };
    this.note(answer.kind === 'moved' ? answer.team : null);
    return answer;
  }

  private note(moved: number | null): void {
    if (moved === this.moved) return;
    this.moved = moved;
    this.onChange(moved);
  }
}
