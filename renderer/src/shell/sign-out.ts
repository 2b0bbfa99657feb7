// What the sign-out dialog does, apart from how it looks: it counts the changes that have not
// reached the platform, the current team's and those waiting in the user's other teams' stores
// (data/identity/other-teams.ts), offers to send the current team's first (online only), asks a second time
// before this computer's copy of the advisor's data (every team's) is removed, naming what is lost,
// and says what it is doing meanwhile: while sending waits because the platform asked us to wait
// (a 429 or 503, for up to an hour), it says until when, and Cancel stays open throughout. Plain
// TypeScript over small ports, so its rules are tested without a screen.

import type { WaitingTeam } from '../data/identity/other-teams.ts';
import { platformPlain } from '@shared/platform-text.ts';

/** Where the dialog is. */
export type SignOutStep = 'choose' | 'sending' | 'confirm-removal' | 'signing-out' | 'done';

export interface SignOutPorts {
  /** Changes made here under the current team that have not reached the platform (queued, refused or in conflict). */
  unsent(): number;
  /** The user's other teams whose store holds unsent changes (removing the copy loses them too). */
  waitingElsewhere(): Promise<WaitingTeam[]>;
  /** Whether the platform can be reached now. */
  online(): boolean;
  /**
   * Sends the current team's queue now; resolves with what is left once the push has done what it can (0: all
   * sent). `left` hears the count as it goes down.
   */
  sendUnsent(left: (count: number) => void): Promise<number>;
  /** Until when (ms) the platform last asked us to wait before sending; null, or past, when it did not. */
  platformWaitUntil?(): number | null;
  /** The clock (ms); default Date.now. */
  now?(): number;
  /** Ends the session (syncing stopped, tokens forgotten): null, or why it could not (still signed in). */
  signOut(): Promise<string | null>;
  /** Leaves for the sign-in screen. */
  leave(): Promise<void>;
  /** Removes this computer's copy of the advisor's data (data/identity/local-copy.ts). */
  removeLocalCopy(): Promise<void>;
}

const changes = (n: number) => `${n} ${n === 1 ? 'change' : 'changes'}`;

/** "14:32" (or "2:32 PM"), as this computer's clock reads it. */
const clockTime = (ms: number) =>
  new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(new Date(ms));

/** "The platform asked us to wait until 14:32; 3 changes still to send." */
export function platformWaitNote(until: number, left: number): string {
  return `The platform asked us to wait until ${clockTime(until)}; ${changes(left)} still to send.`;
}

/** "4 changes have not reached the platform yet." */
export function unsentNote(count: number): string {
  return `${changes(count)} ${count === 1 ? 'has' : 'have'} not reached the platform yet.`;
}

/**
 * What becomes of the current team's unsent changes, as the dialog stands: kept here and sent at
 * the next sign-in, unless this computer's copy is to be removed (`removeCopy`), which loses them.
 * Sending first needs the platform (`online`).
 */
export function keptNote(
  count: number,
  { online, removeCopy }: { online: boolean; removeCopy: boolean },
): string {
  const one = count === 1;
  if (removeCopy)
    return `Removing this computer's copy loses ${one ? 'it' : 'them'} for good: ${one ? 'it never reaches' : 'they never reach'} the platform. ${
      online ? `Send ${one ? 'it' : 'them'} first, or keep the copy` : 'Keep the copy'
    } to send ${one ? 'it' : 'them'} at your next sign-in.`;
  const kept = `${one ? 'It is' : 'They are'} kept here and sent at your next sign-in`;
  return online
    ? `${kept}, unless you send ${one ? 'it' : 'them'} first.`
    : `${kept}, when the platform can be reached.`;
}

const list = (parts: readonly string[]) =>
  parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;

const total = (waiting: readonly WaitingTeam[]) => waiting.reduce((n, w) => n + w.count, 0);

/** "2 changes for Harbor Wealth Partners are not sent." (the other teams' changes, named by team) */
export function elsewhereNote(waiting: readonly WaitingTeam[]): string {
  if (waiting.length === 0) return '';
  const parts = waiting.map((w) => `${changes(w.count)} for ${platformPlain(w.team.name)}`);
  return `${list(parts)} ${total(waiting) === 1 ? 'is' : 'are'} not sent.`;
}

/**
 * How the other teams' changes go: only under their own team, so "send them first" cannot send
 * them (it sends the current team's); with the copy removed (`removeCopy`), not at all.
 */
export function elsewhereWay(waiting: readonly WaitingTeam[], removeCopy = false): string {
  if (waiting.length === 0) return '';
  if (removeCopy)
    return `${total(waiting) === 1 ? 'It goes' : 'They go'} with this computer's copy, lost for good.`;
  const kept = `${total(waiting) === 1 ? 'It is' : 'They are'} kept here and sent when`;
  if (waiting.length === 1) return `${kept} ${platformPlain(waiting[0]!.team.name)} is your current team.`;
  return `${kept} their team is your current team.`;
}

/**
 * What removing the copy loses, said before it is done: the unsent changes for good, the current
 * team's and those waiting in the other teams' stores (removed with the rest), when there are any.
 */
export function lossNote(unsent: number, elsewhere: readonly WaitingTeam[] = []): string {
  const copy =
    'This removes every account, record and downloaded document Advisor Desk keeps on this computer for you, in every team. Your data on the platform is not touched; it is pulled again at your next sign-in.';
  const here =
    unsent === 0
      ? ''
      : ` The ${changes(unsent)} that ${unsent === 1 ? 'has' : 'have'} not reached the platform will be lost for good.`;
  if (elsewhere.length === 0) return copy + here;
  const lost = `${total(elsewhere) === 1 ? 'It' : 'They'} will be lost for good${unsent === 0 ? '' : ' too'}.`;
  return `${copy}${here} ${elsewhereNote(elsewhere)} ${lost}`;
}

export class SignOutFlow {
  step: SignOutStep = 'choose';
  /** "Also remove this computer's copy of my data". */
  removeCopy = false;
  /** What the screen says while it works ("Signing out…"). */
  doing: string | null = null;
  /** While sending first: the changes still to go. */
  left = 0;
  /** Why the last step did not go through, in plain words. */
  problem: string | null = null;
  /** The other teams' unsent changes, once read (`load`). */
  elsewhere: WaitingTeam[] = [];
  /** Why the other teams' stores could not be read, when they could not. */
  elsewhereUnknown: string | null = null;
  private counting: Promise<void> | null = null;
  /** Counts the cancels: a send that ends after one must not go on with the sign-out. */
  private cancels = 0;

  constructor(private readonly ports: SignOutPorts) {}

  /** Reads what waits in the other teams' stores, once: as the dialog opens, at the latest before the second confirmation. */
  load(): Promise<void> {
    this.counting ??= this.ports.waitingElsewhere().then(
      (waiting) => {
        this.elsewhere = waiting;
      },
      (error: unknown) => {
        this.elsewhereUnknown = `The changes waiting in your other teams could not be counted (${error instanceof Error ? error.message : String(error)}).`;
      },
    );
    return this.counting;
  }

  /** What removing the copy loses, for the second confirmation. */
  get loss(): string {
    const note = lossNote(this.unsent, this.elsewhere);
    return this.elsewhereUnknown ? `${note} ${this.elsewhereUnknown} Any there are lost too.` : note;
  }

  /** The current team's unsent changes (the ones "send them first" sends). */
  get unsent(): number {
    return this.ports.unsent();
  }

  /** Every unsent change of the user's on this computer: the current team's and the other teams'. */
  get unsentEverywhere(): number {
    return this.unsent + total(this.elsewhere);
  }

  /** Controls are disabled while the dialog works. */
  get busy(): boolean {
    return this.step === 'sending' || this.step === 'signing-out' || this.step === 'done';
  }

  /** Cancel (back to the app, nothing lost) is open at every moment but the sign-out itself. */
  get canCancel(): boolean {
    return this.step !== 'signing-out' && this.step !== 'done';
  }

  /** Until when the platform asked us to wait, while that is still ahead; else null. */
  get waitingUntil(): number | null {
    const until = this.ports.platformWaitUntil?.() ?? null;
    return until !== null && until > (this.ports.now ?? Date.now)() ? until : null;
  }

  /** What the dialog says while sending first: why nothing moves, when the platform asked us to wait. */
  get sendingNote(): string {
    const until = this.waitingUntil;
    return until === null
      ? `Sending your changes to the platform… ${unsentNote(this.left)}`
      : platformWaitNote(until, this.left);
  }

  /**
   * Cancel, or the dialog closed: the flow stops waiting and signs nobody out. A push under way
   * goes on in the background as any other; nothing queued is touched.
   */
  cancel(): void {
    if (!this.canCancel) return;
    this.cancels++;
    if (this.step === 'sending' || this.step === 'confirm-removal') this.step = 'choose';
  }

  /** "Send them first" is offered when the current team has something to send and a platform to send it to. */
  get canSendFirst(): boolean {
    return this.unsent > 0 && this.ports.online() && !this.busy;
  }

  /** "Sign out": with the copy to remove, the second confirmation comes first. */
  async confirm(): Promise<boolean> {
    if (this.busy) return false;
    if (this.removeCopy && this.step !== 'confirm-removal') {
      // What is lost is named in full: the other teams' changes are counted first.
      await this.load();
      this.step = 'confirm-removal';
      return false;
    }
    return this.finish(this.removeCopy && this.step === 'confirm-removal');
  }

  /** The second confirmation declined: nothing is removed, back to the choice. */
  keepCopy(): void {
    if (this.step === 'confirm-removal') this.step = 'choose';
  }

  /**
   * Sends the current team's unsent changes, with their count going down, then goes on with the
   * sign-out. The other teams' go only under their own team: they stay, and are still named.
   */
  async sendFirst(): Promise<boolean> {
    if (!this.canSendFirst) return false;
    this.problem = null;
    const cancels = this.cancels;
    this.step = 'sending';
    this.left = this.unsent;
    const left = await this.ports.sendUnsent((count) => (this.left = count));
    if (this.cancels !== cancels) return false;
    this.step = 'choose';
    if (left > 0) {
      const until = this.waitingUntil;
      this.problem =
        until === null
          ? `${unsentNote(left)} They could not be sent now; see the sync panel for why.`
          : `${platformWaitNote(until, left)} They are kept here and sent then, or at your next sign-in.`;
      return false;
    }
    return this.confirm();
  }

  private async finish(remove: boolean): Promise<boolean> {
    this.problem = null;
    this.step = 'signing-out';
    this.doing = 'Signing out…';
    const refused = await this.ports.signOut();
    if (refused !== null) {
      this.step = 'choose';
      this.doing = null;
      this.problem = refused;
      return false;
    }
    if (remove) this.doing = "Removing this computer's copy of your data…";
    this.step = 'done';
    // The screens that read the copy close first, so none opens it again.
    await this.ports.leave();
    if (remove) await this.ports.removeLocalCopy();
    return true;
  }
}
