// The data-quality score of an account: weighted know-your-customer rules, the score being the
// valid share of the weight (0–100). The platform's real rules are not published (PLATFORM-FACTS:
// "rules weighted 1–10, based on know-your-customer requirements"); these are the sandbox's, and
// the sandbox computes its answers with this very table, so the app's offline estimate and the
// sandbox agree by construction. Against the real platform the app's score is an estimate until
// the platform answers.
//
// Imports nothing: it runs in the renderer, in the sandbox (Node) and in tests alike.

/** What the rules look at of one member, whatever store it comes from. */
export interface MemberQualityInput {
  email: string | null;
  /** The mobile phone's number (without the calling code). */
  mobileNumber: string | null;
  birthDate: string | null;
  address: {
    line1: string | null;
    city: string | null;
    zip: string | null;
    country: string | null;
  };
  /** Country code of the citizenship. */
  citizenship: string | null;
  maritalStatus: string | null;
  driversLicense: { number: string | null; expireDate: string | null };
  riskScore: number | null;
}

export interface QualityInput {
  client: MemberQualityInput;
  /** Null for an account without a co-client: the co-client's rules then do not apply. */
  coclient: MemberQualityInput | null;
}

export interface QualityRuleDescriptor {
  /** Whose data the rule checks. */
  member: 'client' | 'coclient';
  message: string;
  /** 1–10. */
  weight: number;
  holds: (member: MemberQualityInput) => boolean;
}

/** A rule as applied to one account. */
export interface QualityRule {
  message: string;
  valid: boolean;
  weight: number;
}

export interface QualityScore {
  /** Integer, 0–100. */
  score: number;
  rules: { message: string; valid: boolean }[];
}

const hasEmail = (m: MemberQualityInput) => (m.email ?? '').includes('@');
/** Older than this is a typo in an advisor's files (shared/input-checks.ts warns of it). */
const OLDEST_YEARS = 120;
const isoDay = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/**
 * A date of birth counts as on file when it is plausible: not after today, and no more than 120
 * years ago. A date in 1800 is on the record but is no good data (issue 23: it was counted).
 */
function hasBirthDate(m: MemberQualityInput, today = new Date()): boolean {
  const day = /^\d{4}-\d{2}-\d{2}/.exec(m.birthDate ?? '')?.[0];
  if (!day) return Boolean(m.birthDate);
  const oldest = isoDay(new Date(today.getFullYear() - OLDEST_YEARS, today.getMonth(), today.getDate()));
  return day >= oldest && day <= isoDay(today);
}

/** In the order the platform lists them: the client's, then the co-client's. */
export const QUALITY_RULES: readonly QualityRuleDescriptor[] = [
  { member: 'client', message: 'Client email address is on file', weight: 10, holds: hasEmail },
  {
    member: 'client',
    message: 'Client mobile phone is on file',
    weight: 6,
    holds: (m) => Boolean(m.mobileNumber),
  },
  { member: 'client', message: 'Client date of birth is on file', weight: 8, holds: (m) => hasBirthDate(m) },
  {
    member: 'client',
    message: 'Client home address is complete',
    weight: 7,
    holds: ({ address: a }) => Boolean(a.line1 && a.city && a.zip && a.country),
  },
  {
    member: 'client',
    message: 'Client citizenship is on file',
    weight: 5,
    holds: (m) => Boolean(m.citizenship),
  },
  {
    member: 'client',
    message: 'Client marital status is on file',
    weight: 4,
    holds: (m) => Boolean(m.maritalStatus),
  },
  {
    member: 'client',
    // Named by what it reads (0.0.1 Driver's License: number, expire_date), not as any identity
    // document: a photo ID the member sent through a form is in the profile, and is not this.
    message: 'Client driver’s license number and expiry date are on file',
    weight: 6,
    holds: ({ driversLicense: d }) => Boolean(d.number && d.expireDate),
  },
  {
    member: 'client',
    message: 'Client risk score is recorded',
    weight: 9,
    holds: (m) => typeof m.riskScore === 'number',
  },
  { member: 'coclient', message: 'Co-client email address is on file', weight: 8, holds: hasEmail },
  {
    member: 'coclient',
    message: 'Co-client date of birth is on file',
    weight: 6,
    holds: (m) => hasBirthDate(m),
  },
];

/** A member of whom nothing is known: every rule about them fails. */
export function emptyMemberQualityInput(): MemberQualityInput {
  return {
    email: null,
    mobileNumber: null,
    birthDate: null,
    address: { line1: null, city: null, zip: null, country: null },
    citizenship: null,
    maritalStatus: null,
    driversLicense: { number: null, expireDate: null },
    riskScore: null,
  };
}

/** The rules that apply to the account (the co-client's only with a co-client), each with its verdict. */
export function qualityRules(input: QualityInput): QualityRule[] {
  const out: QualityRule[] = [];
  for (const rule of QUALITY_RULES) {
    const member = rule.member === 'client' ? input.client : input.coclient;
    if (member) out.push({ message: rule.message, valid: rule.holds(member), weight: rule.weight });
  }
  return out;
}

/** The score and the rules as the version 2 interface gives them (`quality` of an Account). */
export function qualityScore(input: QualityInput): QualityScore {
  const rules = qualityRules(input);
  const total = rules.reduce((s, r) => s + r.weight, 0);
  const valid = rules.reduce((s, r) => s + (r.valid ? r.weight : 0), 0);
  return {
    score: total === 0 ? 0 : Math.round((100 * valid) / total),
    rules: rules.map(({ message, valid }) => ({ message, valid })),
  };
}
