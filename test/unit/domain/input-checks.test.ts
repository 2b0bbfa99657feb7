// The input checks every form uses (shared/input-checks.ts), on the fields of the real forms:
// what the advisor typed (a bad e-mail, risk −5, a 6,400-character comment, a phone
// without its country code, a liability ending before it starts, an asset worth −$5,000, a
// birth date in 1800) is refused or warned in the advisor's words; what is plausible passes.

import { describe, expect, it } from 'vitest';
import { sectionForm } from '../../../shared/section-forms/build.ts';
import type { SectionForm } from '../../../shared/section-forms/form.ts';
import { MEMBER_FIELDS } from '../../../shared/section-forms/member-form.ts';
import { checkInput, isPhoneWithCountryCode } from '../../../shared/input-checks.ts';

const today = new Date(2026, 10, 26);
const member = (values: Record<string, unknown>) => checkInput('details', MEMBER_FIELDS, values, { today });
const section = (path: string, values: Record<string, unknown>) => {
  const form = sectionForm(path) as SectionForm;
  return checkInput(path, form.fields, values, { today });
};

describe('a member’s details', () => {
  it('refuses a bad e-mail, a risk score outside 0–100 and a comment over 5,000 characters', () => {
    const { errors, warnings } = member({
      email: 'nora@example',
      risk_score: -5,
      comments: 'x'.repeat(6400),
      previous_marriages: 21,
    });
    expect(errors).toEqual({
      email: ['E-mail: enter an e-mail address such as name@example.com.'],
      risk_score: ['Risk score: enter a number from 0 to 100.'],
      comments: ['Comments: shorten it to 5,000 characters (it has 6,400).'],
      previous_marriages: ['Previous marriages: enter a whole number from 0 to 20.'],
    });
    expect(warnings).toEqual({});
  });

  it('refuses a phone without its country code, in every phone field', () => {
    const { errors } = member({
      phone: '555-0199',
      home_phone: '(555) 010-0199',
      work_phone: '+1 555 010 0199',
    });
    expect(errors).toEqual({
      phone: ['Mobile phone: enter the number with its country code, such as +1 555 010 0199.'],
      home_phone: ['Home phone: enter the number with its country code, such as +1 555 010 0199.'],
    });
    expect(isPhoneWithCountryCode('+44 20 7946 0958')).toBe(true);
    expect(isPhoneWithCountryCode('+1')).toBe(false);
  });

  it('warns of a birth date more than 120 years ago, refuses one in the future', () => {
    expect(member({ birth_date: '1800-03-14' })).toEqual({
      errors: {},
      warnings: { birth_date: ['Date of birth is more than 120 years ago: check the year.'] },
    });
    expect(member({ birth_date: '2027-01-01' }).errors).toEqual({
      birth_date: ['Date of birth: pick a date in the past.'],
    });
    expect(member({ birth_date: '1961-07-04' })).toEqual({ errors: {}, warnings: {} });
  });

  it('refuses a license that expires before (or on the day) it was issued', () => {
    expect(
      member({ 'drivers_license.issue_date': '2020-05-01', 'drivers_license.expire_date': '2020-05-01' })
        .errors,
    ).toEqual({ 'drivers_license.expire_date': ['Expires: pick a date after “Issued”.'] });
  });

  it('checks only what changed, and a date that must follow a changed one', () => {
    const changed = (name: string) => name === 'drivers_license.issue_date';
    const r = checkInput(
      'details',
      MEMBER_FIELDS,
      {
        phone: '555-0199',
        'drivers_license.issue_date': '2030-01-01',
        'drivers_license.expire_date': '2029-01-01',
      },
      { today, changed },
    );
    expect(Object.keys(r.errors)).toEqual(['drivers_license.expire_date']);
    expect(r.warnings).toEqual({
      'drivers_license.issue_date': ['Issued is in the future: check the date.'],
    });
  });
});

describe('a section’s items', () => {
  it('refuses a liability ending before it starts; the same day is fine', () => {
    expect(section('liabilities', { start_date: '2024-06-01', end_date: '2024-05-31' }).errors).toEqual({
      end_date: ['End date: pick a date on or after “Start date”.'],
    });
    expect(section('liabilities', { start_date: '2024-06-01', end_date: '2024-06-01' }).errors).toEqual({});
  });

  it('refuses a negative amount where it means nothing, keeps it where it may be a loss', () => {
    const asset = section('assets', { current_value: { value: -5000, frequency: 'one-time' } });
    expect(asset.errors).toEqual({ current_value: ['Current value: enter an amount of zero or more.'] });
    const income = section('income', { self_employment: { value: -1200, frequency: 'monthly' } });
    expect(income.errors).toEqual({});
  });

  it('refuses a negative interest rate and one over 100 %', () => {
    expect(section('liabilities', { interest: -1 }).errors.interest).toHaveLength(1);
    expect(section('liabilities', { interest: 150 }).errors.interest).toHaveLength(1);
    expect(section('liabilities', { interest: 6.25 }).errors).toEqual({});
  });

  it('checks a family member’s e-mail, phone, birth date and college years', () => {
    const r = section('family', {
      email: 'maja@',
      phone: '5550199',
      birth_date: '1800-01-01',
      college_start: 2031,
      college_end: 2029,
    });
    expect(Object.keys(r.errors).sort()).toEqual(['college_end', 'email', 'phone']);
    expect(Object.keys(r.warnings)).toEqual(['birth_date']);
  });

  it('warns of a goal whose target date is already past', () => {
    const r = section('goals', { target: { value: 40000, date: '2020-01-01' } });
    expect(r.errors).toEqual({});
    expect(Object.keys(r.warnings)).toEqual(['target']);
  });
});
