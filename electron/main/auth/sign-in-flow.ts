// Sign-in in the system browser: authorization code with PKCE and state, the redirect to a
// loopback listener (loopback.ts), the code exchanged for a token set the grant store adopts.
// Each flow settles once (completed, cancelled, timed out or failed) and tells the browser's tab.

import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import type { ApiName } from '@shared/api/request.ts';
import type { AuthStatus, SignInOutcome, SignInStart, SignInTarget } from '@shared/auth.ts';
import type { SignInStartResult } from '@shared/bridge.ts';
import type { ConnectionProfile } from '@shared/settings.ts';
import { ServerUnreachable, SignInRefused } from './auth-server.ts';
import type { ClientConfigurations } from './client-configuration.ts';
import { grantFrom, type Binding, type Grant } from './grant.ts';
import type { GrantStore } from './grant-store.ts';
import { listenForRedirect, type RedirectListener, type ResultPage } from './loopback.ts';
import type { OpenExternal } from './ports.ts';
import { bindingFor, boundHere, coveredApis, trimSlashes } from './profile-binding.ts';
import { signInFailure, type FlowResult, type SignInContext } from './sign-in-failure.ts';

export interface SignInFlowOptions {
  profile: () => ConnectionProfile;
  configs: ClientConfigurations;
  grants: GrantStore;
  openExternal: OpenExternal;
  /** What a settled flow reports (the auth service's status once the flow is over). */
  status: () => Promise<AuthStatus>;
  now: () => number;
  /** How long a sign-in waits for the browser to come back. */
  signInTimeoutMs: number;
}

/** A finished flow nobody asked about is forgotten after this long. */
const KEEP_OUTCOME_MS = 60_000;

const START_FAILED_NOTE =
  'Advisor Desk could not start the sign-in. Try again; if it keeps failing, restart Advisor Desk.';

interface Flow {
  id: string;
  /** The interfaces this sign-in covers: both when they share the auth server. */
  apis: ApiName[];
  /** What the token set it brings will be bound to (the profile when the sign-in started). */
  binding: Binding;
  config: oidc.Configuration;
  /** What failures name: the server's address and issuer, the scope asked for. */
  context: SignInContext;
  verifier: string;
  state: string;
  listener: RedirectListener;
  timer: ReturnType<typeof setTimeout> | undefined;
  settled: boolean;
  outcome: Promise<SignInOutcome>;
  resolve: (outcome: SignInOutcome) => void;
}

/** The sign-ins in progress, and those finished that nobody asked about yet. */
export class SignInFlows {
  private readonly flows = new Map<string, Flow>();

  constructor(private readonly options: SignInFlowOptions) {}

  /** Never rejects: a sign-in that cannot start says why, for the sign-in screen to show. */
  async begin(target: SignInTarget): Promise<SignInStartResult> {
    try {
      return { ok: true, ...(await this.start(target)) };
    } catch (error) {
      if (error instanceof SignInRefused) return { ok: false, message: error.message };
      if (error instanceof ServerUnreachable)
        return { ok: false, message: unreachableNote(this.options.profile(), target) };
      return { ok: false, message: START_FAILED_NOTE };
    }
  }

  /** Resolves when the browser comes back, or the flow is cancelled, times out or fails. */
  async finish(flowId: string): Promise<SignInOutcome> {
    const flow = this.flows.get(flowId);
    if (!flow) {
      return {
        ok: false,
        reason: 'failed',
        message: 'Advisor Desk is not waiting for this sign-in any more. Start the sign-in again.',
        status: await this.options.status(),
      };
    }
    const outcome = await flow.outcome;
    this.flows.delete(flowId);
    return outcome;
  }

  async cancel(flowId: string): Promise<void> {
    const flow = this.flows.get(flowId);
    if (flow) await this.end(flow, { ok: false, reason: 'cancelled', message: 'You cancelled the sign-in.' });
  }

  /**
   * Sign-out: every flow still waiting is cancelled, since one completed later would sign the user
   * back in. Each is marked settled at once, so a code exchanged meanwhile is dropped; the
   * promises settle once the browsers have been answered.
   */
  cancelAll(): Promise<void>[] {
    return [...this.flows.values()].map((flow) =>
      this.end(flow, {
        ok: false,
        reason: 'cancelled',
        message: 'You signed out while this sign-in was waiting. Sign in again when you are ready.',
      }),
    );
  }

  /** The profile changed: a flow whose token set it would no longer allow is cancelled. */
  async cancelUnbound(profile: ConnectionProfile): Promise<void> {
    for (const flow of this.flows.values()) {
      const moved = flow.apis.some((api) => !boundHere(flow.binding, profile, api));
      if (moved && !flow.settled) {
        await this.end(flow, {
          ok: false,
          reason: 'cancelled',
          message: 'The connection settings changed during the sign-in. Start it again.',
        });
      }
    }
  }

  private async start(target: SignInTarget): Promise<SignInStart> {
    await this.options.grants.ready();
    const profile = this.options.profile();
    const apis = coveredApis(target, profile);
    const binding = bindingFor(profile, apis);
    const { authUrl } = binding;
    const config = await this.options.configs.configuration(authUrl, profile.clientId);
    const scope = profile.scope || '*';
    const { issuer, scopes_supported: listed } = config.serverMetadata();
    const unlisted = listed ? scope.split(/\s+/).filter((s) => !listed.includes(s)) : [];
    const context: SignInContext = { authUrl, issuer, scope, unlisted };

    // A newer sign-in for the same interfaces replaces an older one still waiting.
    for (const flow of this.flows.values()) {
      if (!flow.settled && flow.apis.some((api) => apis.includes(api))) {
        await this.end(flow, {
          ok: false,
          reason: 'cancelled',
          message: 'A newer sign-in replaced this one.',
        });
      }
    }

    const state = oidc.randomState();
    const verifier = oidc.randomPKCECodeVerifier();
    const listener = await listenForRedirect(state);
    let url: URL;
    try {
      url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: listener.redirectUri,
        scope,
        state,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        // OpenID Connect Core §11: a refresh token for offline_access is issued only after consent.
        ...(scope.split(/\s+/).includes('offline_access') ? { prompt: 'consent' } : {}),
      });
    } catch (error) {
      await listener.close();
      throw error;
    }

    let resolve: (outcome: SignInOutcome) => void = () => undefined;
    const outcome = new Promise<SignInOutcome>((r) => (resolve = r));
    const flow: Flow = {
      id: randomUUID(),
      apis,
      binding,
      config,
      context,
      verifier,
      state,
      listener,
      timer: undefined,
      settled: false,
      outcome,
      resolve,
    };
    this.flows.set(flow.id, flow);
    flow.timer = setTimeout(() => void this.end(flow, this.timeoutResult()), this.options.signInTimeoutMs);
    flow.timer.unref?.();
    void listener.callback
      .then((callbackUrl) => this.complete(flow, callbackUrl))
      .catch(() => this.end(flow, signInFailure(null, context)))
      .catch(() => undefined);

    let openedExternally = false;
    try {
      openedExternally = await this.options.openExternal(url.href);
    } catch {
      // The caller opens the page itself; nothing is lost.
    }
    return { flowId: flow.id, url: url.href, openedExternally };
  }

  /** The browser came back with the right state: exchange the code, keep the tokens, tell the tab. */
  private async complete(flow: Flow, callbackUrl: URL): Promise<void> {
    // The user has done their part; from here the token request's own timeout applies.
    clearTimeout(flow.timer);
    if (flow.settled) return;
    let grant: Grant | null = null;
    let failure: FlowResult | null = null;
    try {
      const tokens = await oidc.authorizationCodeGrant(flow.config, callbackUrl, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
      });
      grant = grantFrom(tokens, flow.binding, null, this.options.now());
    } catch (error) {
      failure = signInFailure(error, flow.context);
    }
    // Cancelled while the code was exchanged: end() has answered; the new tokens are dropped.
    if (flow.settled) return;
    if (grant) {
      await this.options.grants.adopt(flow.apis, grant);
      await this.end(flow, { ok: true });
    } else if (failure) {
      await this.end(flow, failure);
    }
  }

  /** Settles a flow once: answers the browser, closes the listener, resolves finish(). */
  private async end(flow: Flow, result: FlowResult): Promise<void> {
    if (flow.settled) return;
    flow.settled = true;
    clearTimeout(flow.timer);
    await flow.listener.finish(pageFor(result));
    const status = await this.options.status();
    flow.resolve(result.ok ? { ok: true, status } : { ...result, status });
    setTimeout(() => {
      if (this.flows.get(flow.id) === flow) this.flows.delete(flow.id);
    }, KEEP_OUTCOME_MS).unref?.();
  }

  private timeoutResult(): FlowResult {
    return {
      ok: false,
      reason: 'timeout',
      message: `The sign-in was not completed within ${duration(this.options.signInTimeoutMs)}. Start it again when you are ready.`,
    };
  }
}

function unreachableNote(profile: ConnectionProfile, target: SignInTarget): string {
  const api: ApiName = target === 'v0' ? 'v0' : 'v2';
  return `Advisor Desk could not reach the sign-in server at ${trimSlashes(profile[api].authUrl)} to read its settings. Check the connection and try again.`;
}

/** What the browser's tab shows once the flow is over. */
function pageFor(result: FlowResult): ResultPage {
  if (result.ok) {
    return {
      status: 200,
      title: 'Signed in',
      message: 'You are signed in. You can close this tab and return to Advisor Desk.',
    };
  }
  switch (result.reason) {
    // The server refused (access_denied): its own words, as the app's window shows them. Whether
    // the user declined on its page or it granted nothing, only the server can say.
    case 'denied':
      return {
        status: 200,
        title: 'Sign-in refused',
        message: `${result.message} You can close this tab and return to Advisor Desk.`,
      };
    // Only the user ends a flow this way: Cancel in the app, a sign-out, a new sign-in or profile.
    case 'cancelled':
      return {
        status: 200,
        title: 'Sign-in cancelled',
        message: 'The sign-in was cancelled. You can close this tab and return to Advisor Desk.',
      };
    case 'timeout':
      return {
        status: 408,
        title: 'Sign-in expired',
        message: 'Advisor Desk stopped waiting for this sign-in. Return to Advisor Desk and start it again.',
      };
    case 'failed':
      return {
        status: 400,
        title: 'Sign-in failed',
        message: `${result.message} You can close this tab and return to Advisor Desk.`,
      };
  }
}

function duration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) {
    const minutes = ms / 60_000;
    return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  }
  const seconds = Math.max(1, Math.round(ms / 1000));
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}
