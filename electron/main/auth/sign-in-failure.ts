// Why a sign-in did not complete, in words the user can act on: what the server said when it
// refused, which addresses disagree when the answer came from elsewhere. Never quotes a code or token.

import * as oidc from 'openid-client';

export type FlowResult =
  { ok: true } | { ok: false; reason: 'cancelled' | 'denied' | 'timeout' | 'failed'; message: string };

/** What the sign-in asked for, to name it when the server refuses it. */
export interface SignInContext {
  authUrl: string;
  /** The issuer the server's metadata names (the profile's address when it has none). */
  issuer: string;
  scope: string;
  /** Requested scopes the server's metadata does not list (empty when it lists none). */
  unlisted: string[];
}

const scopeAdvice = (scope: string) =>
  `The documented platform takes the scope “*”; standard OpenID servers take “openid offline_access”. The scope asked for was “${scope}”: change it in the connection settings if it does not suit this server.`;

/** The server's own words: `error: error_description`, or the error code alone. */
const said = (error: string, description: string | undefined) =>
  description ? `${error}: ${description}` : error;

export function signInFailure(error: unknown, context: SignInContext): FlowResult {
  const { authUrl } = context;
  if (error instanceof oidc.AuthorizationResponseError) {
    const detail = said(error.error, error.error_description);
    if (error.error === 'access_denied') {
      // A server that grants none of the scopes asked for says access_denied, often without a word.
      const advice = context.unlisted.length > 0 ? ` ${scopeAdvice(context.scope)}` : '';
      return {
        ok: false,
        reason: 'denied',
        message: `The sign-in server at ${authUrl} refused the sign-in (${detail}).${advice}`,
      };
    }
    if (error.error === 'invalid_scope') {
      return {
        ok: false,
        reason: 'failed',
        message: `The sign-in server at ${authUrl} refused the scope (${detail}). ${scopeAdvice(context.scope)}`,
      };
    }
    return {
      ok: false,
      reason: 'failed',
      message: `The sign-in server at ${authUrl} could not sign you in (${detail}).`,
    };
  }
  if (error instanceof oidc.ResponseBodyError) {
    return {
      ok: false,
      reason: 'failed',
      message: `The platform refused the sign-in (${said(error.error, error.error_description)}). Check the client id and secret in the connection settings, then try again.`,
    };
  }
  const issuerProblem = issuerFailure(error, context);
  if (issuerProblem) return { ok: false, reason: 'failed', message: issuerProblem };
  if (error instanceof TypeError || (error instanceof oidc.ClientError && error.code === 'OAUTH_TIMEOUT')) {
    return {
      ok: false,
      reason: 'failed',
      message: `Advisor Desk could not reach the sign-in server at ${authUrl}. Check the connection and try again.`,
    };
  }
  const what = error instanceof oidc.ClientError ? ` (${error.message})` : '';
  return {
    ok: false,
    reason: 'failed',
    message: `The sign-in server at ${authUrl} gave an answer Advisor Desk could not use${what}. Try again later.`,
  };
}

/**
 * RFC 9207: the callback names the server that sent it. Missing although the server says it always
 * sends it, or naming another server, the answer may come from an attacker's server (mix-up).
 */
function issuerFailure(error: unknown, context: SignInContext): string | null {
  if (!(error instanceof oidc.ClientError) || error.code !== 'OAUTH_INVALID_RESPONSE') return null;
  const cause = error.cause instanceof Error ? error.cause : null;
  if (!cause) return null;
  if (cause.message.includes('"iss" (issuer) missing')) {
    return `The answer to the sign-in does not say which server sent it, although the sign-in server at ${context.issuer} always says so. Advisor Desk did not complete the sign-in. Start it again.`;
  }
  if (cause.message.includes('unexpected "iss"')) {
    const details = (cause as Error & { cause?: { parameters?: URLSearchParams } }).cause;
    const received = details?.parameters?.get('iss') ?? 'another server';
    return `The answer to the sign-in came from ${received}, not from the sign-in server ${context.issuer}. Advisor Desk did not complete the sign-in. Start it again.`;
  }
  return null;
}
