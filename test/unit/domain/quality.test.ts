// The data-quality rules (shared/quality.ts): each rule moves the score by exactly its weight, the
// co-client's rules count only with a co-client, and the score is the valid share of the weight.

import { describe, expect, it } from 'vitest';
import {
  QUALITY_RULES,
  emptyMemberQualityInput,
  qualityRules,
  qualityScore,
  type MemberQualityInput,
  type QualityInput,
} from '@shared/quality.ts';

/** A member of whom every rule holds. */
const complete = (): MemberQualityInput => ({
  email: 'ann@example.com',
  mobileNumber: '5125550111',
  birthDate: '1975-09-30 00:00:00',
  address: { line1: '5 Park Pl', city: 'Albany', zip: '12207', country: 'US' },
  citizenship: 'US',
  maritalStatus: 'single',
  driversLicense: { number: 'N7654321', expireDate: '2029-05-01 00:00:00' },
  riskScore: 7,
});

/** The same member with one rule's data taken away. */
const BREAKS: Record<string, (m: MemberQualityInput) => void> = {
  'Client email address is on file': (m) => (m.email = 'not an address'),
  'Client mobile phone is on file': (m) => (m.mobileNumber = null),
  'Client date of birth is on file': (m) => (m.birthDate = ''),
  'Client home address is complete': (m) => (m.address.zip = null),
  'Client citizenship is on file': (m) => (m.citizenship = null),
  'Client marital status is on file': (m) => (m.maritalStatus = null),
  'Client driver’s license number and expiry date are on file': (m) => (m.driversLicense.expireDate = null),
  'Client risk score is recorded': (m) => (m.riskScore = null),
  'Co-client email address is on file': (m) => (m.email = null),
  'Co-client date of birth is on file': (m) => (m.birthDate = null),
};

const validWeight = (input: QualityInput) =>
  qualityRules(input).reduce((sum, r) => sum + (r.valid ? r.weight : 0), 0);

describe('the quality rules', () => {
  it('are the sandbox’s weighted know-your-customer rules, weights 1–10', () => {
    expect(QUALITY_RULES.map((r) => [r.member, r.weight])).toEqual([
      ['client', 10],
      ['client', 6],
      ['client', 8],
      ['client', 7],
      ['client', 5],
      ['client', 4],
      ['client', 6],
      ['client', 9],
      ['coclient', 8],
      ['coclient', 6],
    ]);
    expect(Object.keys(BREAKS)).toEqual(QUALITY_RULES.map((r) => r.message));
  });

  it.each(QUALITY_RULES.map((r) => [r.message, r] as const))(
    '“%s” moves the valid weight by its own weight, and no other rule',
    (message, rule) => {
      const full: QualityInput = { client: complete(), coclient: complete() };
      const broken: QualityInput = { client: complete(), coclient: complete() };
      BREAKS[message]!(rule.member === 'client' ? broken.client : broken.coclient!);
      expect(validWeight(full) - validWeight(broken)).toBe(rule.weight);
      expect(
        qualityRules(broken)
          .filter((r) => !r.valid)
          .map((r) => r.message),
      ).toEqual([message]);
      // 69 in all with a co-client: the score drops by the weight's share of it.
      expect(qualityScore(full).score).toBe(100);
      expect(qualityScore(broken).score).toBe(Math.round((100 * (69 - rule.weight)) / 69));
    },
  );

  it('apply the co-client’s rules only to an account with a co-client', () => {
    const single = qualityScore({ client: complete(), coclient: null });
    expect(single.rules.map((r) => r.message)).toEqual(
      QUALITY_RULES.filter((r) => r.member === 'client').map((r) => r.message),
    );
    expect(single.score).toBe(100);
    // A co-client of whom nothing is known fails both of their rules: 55 of 69.
    const household = qualityScore({ client: complete(), coclient: emptyMemberQualityInput() });
    expect(household.rules.slice(-2)).toEqual([
      { message: 'Co-client email address is on file', valid: false },
      { message: 'Co-client date of birth is on file', valid: false },
    ]);
    expect(household.score).toBe(Math.round((100 * 55) / 69));
  });

  it('scores a member of whom only an e-mail address is known 10 of 55, rounded: 18', () => {
    const member = { ...emptyMemberQualityInput(), email: 'ann@example.com' };
    expect(qualityScore({ client: member, coclient: null })).toMatchObject({ score: 18 });
    expect(qualityScore({ client: emptyMemberQualityInput(), coclient: null }).score).toBe(0);
  });

  it('counts a risk score of 0 as recorded: only a missing one fails', () => {
    const zero = { ...complete(), riskScore: 0 };
    expect(qualityScore({ client: zero, coclient: null }).score).toBe(100);
  });
});
