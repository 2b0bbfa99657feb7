// What the sign-out dialog does, apart from how it looks: it counts the changes that have not
// reached the platform, offers to send them first (online only), asks a second time before this
// computer's copy of the advisor's data is removed (naming what is lost), and says what it is doing
// meanwhile. Plain TypeScript over small ports, so its rules are tested without a screen.

/** Where the dialog is. */
export type SignOutStep = 'choose' | 'sending' | 'confirm-removal' | 'signing-out' | 'done';

export interface SignOutPorts {
  /** Changes made here that have not reached the platform (queued, refused or in conflict). */
  unsent(): number;
  /** Whether the platform can be reached now. */
  online(): boolean;
  /**
   * Sends the queue now; resolves with what is left once the push has done what it can (0: all
   * sent). `left` hears the count as it goes down.
   */
  sendUnsent(left: (count: number) => void): Promise<number>;
  /** Ends the session (syncing stopped, tokens forgotten): null, or why it could not (still signed in). */
  signOut(): Promise<string | null>;
  /** Leaves for the sign-in screen. */
  leave(): Promise<void>;
  /** Removes this computer's copy of the advisor's data (data/local-copy.ts). */
  removeLocalCopy(): Promise<void>;
}

const changes = (n: number) => `${n} ${n === 1 ? 'change' : 'changes'}`;

/** "4 changes have not reached the platform yet." */
export function unsentNote(count: number): string {
  return `${changes(count)} ${count === 1 ? 'has' : 'have'} not reached the platform yet.`;
}

/** What removing the copy loses, said before it is done: the unsent changes for good, when there are any. */
export function lossNote(unsent: number): string {
  const copy =
    'This removes every account, record and downloaded document Advisor Desk keeps on this computer for you, in every team. Your data on the platform is not touched; it is pulled again at your next sign-in.';
  if (unsent === 0) return copy;
  return `${copy} The ${changes(unsent)} that ${unsent === 1 ? 'has' : 'have'} not reached the platform will be lost for good.`;
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

  constructor(private readonly ports: SignOutPorts) {}

  get unsent(): number {
    return this.ports.unsent();
  }

  /** Controls are disabled while the dialog works. */
  get busy(): boolean {
    return this.step === 'sending' || this.step === 'signing-out' || this.step === 'done';
  }

  /** "Send them first" is offered when there is something to send and a platform to send it to. */
  get canSendFirst(): boolean {
    return this.unsent > 0 && this.ports.online() && !this.busy;
  }

  /** "Sign out": with the copy to remove, the second confirmation comes first. */
  async confirm(): Promise<boolean> {
    if (this.busy) return false;
    if (this.removeCopy && this.step !== 'confirm-removal') {
      this.step = 'confirm-removal';
      return false;
    }
    return this.finish(this.removeCopy && this.step === 'confirm-removal');
  }

  /** The second confirmation declined: nothing is removed, back to the choice. */
  keepCopy(): void {
    if (this.step === 'confirm-removal') this.step = 'choose';
  }

  /** Sends the unsent changes, with their count going down, then goes on with the sign-out. */
  async sendFirst(): Promise<boolean> {
    if (!this.canSendFirst) return false;
    this.problem = null;
    this.step = 'sending';
    this.left = this.unsent;
    const left = await this.ports.sendUnsent((count) => (this.left = count));
    this.step = 'choose';
    if (left > 0) {
      this.problem = `${unsentNote(left)} They could not be sent now; see the sync panel for why.`;
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
