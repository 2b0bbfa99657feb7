// The browser preview's stand-in for the native message box Electron shows before a save that moves
// the app to other servers (address-change.ts). The host holds the question while the save waits;
// the page, which asks for questions while such a save is under way (`POST …/__question`, held
// open until one comes), puts it to the advisor in the browser's own confirm dialog and sends the
// answer (`POST …/__answer/<id>`). No answer within the wait, or a page that is gone, is a Cancel.

import { randomBytes } from 'node:crypto';
import type { AddressQuestion } from '../main/settings/address-change.ts';

/** A question as the page receives it. */
export interface PageQuestion {
  id: string;
  title: string;
  message: string;
  detail: string;
  /** The label of the button that agrees, as the native dialog names it. */
  agree: string;
}

interface Pending {
  question: PageQuestion;
  shown: boolean;
  settle: (agree: boolean) => void;
}

/** How long a save waits for the advisor's answer before it is taken as Cancel. */
const ANSWER_WAIT_MS = 10 * 60_000;

export class PageQuestions {
  private readonly pending = new Map<string, Pending>();
  /** Pages waiting for a question. */
  private readonly waiting = new Set<(question: PageQuestion) => void>();

  constructor(private readonly answerWaitMs = ANSWER_WAIT_MS) {}

  /** Puts `question` to the page; true only when the advisor agreed. */
  ask(question: AddressQuestion): Promise<boolean> {
    const id = randomBytes(16).toString('base64url');
    const asked: PageQuestion = {
      id,
      title: question.title,
      message: question.message,
      detail: question.detail,
      agree: question.buttons[0],
    };
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(false), this.answerWaitMs);
      timer.unref();
      const settle = (agree: boolean) => {
        clearTimeout(timer);
        this.pending.delete(id);
        resolve(agree);
      };
      this.pending.set(id, { question: asked, shown: false, settle });
      this.handOut();
    });
  }

  /** The next question not shown yet; null after `waitMs` or once `ended` aborts (the page left). */
  next(ended: AbortSignal, waitMs: number): Promise<PageQuestion | null> {
    const first = this.unshown();
    if (first) return Promise.resolve(this.show(first));
    return new Promise((resolve) => {
      const done = (question: PageQuestion | null) => {
        clearTimeout(timer);
        this.waiting.delete(receive);
        ended.removeEventListener('abort', gone);
        resolve(question);
      };
      const receive = (question: PageQuestion) => done(question);
      const gone = () => done(null);
      const timer = setTimeout(gone, waitMs);
      this.waiting.add(receive);
      ended.addEventListener('abort', gone);
    });
  }

  /** The advisor's answer to question `id`; false when no such question waits. */
  answer(id: string, agree: boolean): boolean {
    const pending = this.pending.get(id);
    if (!pending?.shown) return false;
    pending.settle(agree);
    return true;
  }

  /** A question handed to a page that left before receiving it: the next page gets it. */
  undelivered(id: string): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    pending.shown = false;
    this.handOut();
  }

  private unshown(): Pending | undefined {
    return [...this.pending.values()].find((p) => !p.shown);
  }

  private show(pending: Pending): PageQuestion {
    pending.shown = true;
    return pending.question;
  }

  private handOut(): void {
    const [page] = this.waiting;
    const next = this.unshown();
    if (page && next) page(this.show(next));
  }
}
