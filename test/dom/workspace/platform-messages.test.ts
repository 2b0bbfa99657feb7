// The platform's validation messages name a field by its key ("The client.email field must be a
// valid email address."); the advisor reads them with the field's label in its place, wherever
// they show (the account form, the workspace's refusal bar, the sync panel).

import { describe, expect, it } from 'vitest';
import { sectionForm } from '@shared/section-forms/build.ts';
import { MEMBER_FIELDS } from '@shared/section-forms/member-form.ts';
import { readableMessage } from '@shared/section-forms/server-messages.ts';
import { ACCOUNT_MESSAGE_FIELDS, accountRefusal } from '../../../renderer/src/household/display.ts';

describe('version 2 messages in the advisor’s words', () => {
  it('names an account’s fields as the account form labels them', () => {
    const cases: [string, string][] = [
      [
        'The client.email field must be a valid email address.',
        'Client email must be a valid email address.',
      ],
      ['The client.first_name field is required.', 'Client first name is required.'],
      [
        'The coclient.last_name field is required when a co-client is given.',
        'Co-client last name is required when a co-client is given.',
      ],
      [
        'The client.phone.number field format is invalid; use 4 to 15 digits.',
        'Client phone number format is invalid; use 4 to 15 digits.',
      ],
      // A second field named inside the sentence gets its label too.
      [
        'The coclient.email field and client.email must be different.',
        'Co-client email and client email must be different.',
      ],
      // Older wording, without "field"; and Laravel's summary of more errors is kept.
      ['The client.email must be a valid email address.', 'Client email must be a valid email address.'],
      [
        'The client.email field must be a valid email address. (and 1 more error)',
        'Client email must be a valid email address. (and 1 more error)',
      ],
      ['The selected type is invalid.', 'Type: choose one of the values in the list.'],
    ];
    for (const [platform, advisor] of cases)
      expect(readableMessage(platform, ACCOUNT_MESSAGE_FIELDS), platform).toBe(advisor);
  });

  it('names a section’s or a member’s field by its label', () => {
    const assets = sectionForm('assets')!;
    expect(readableMessage('The current-value field must be a number.', assets.fields)).toBe(
      'Current value must be a number.',
    );
    expect(readableMessage('The password field is required.')).toBe('Password is required.');
    const birth = MEMBER_FIELDS.find((f) => f.name === 'birth_date')!;
    expect(readableMessage('The birth_date field must be a date before today.', MEMBER_FIELDS)).toBe(
      `${birth.label} must be a date before today.`,
    );
  });

  it('leaves a sentence that names no field as it is', () => {
    for (const sentence of [
      'The platform cannot be reached.',
      'The one-time payment could not be read.',
      'The record was deleted on the server.',
    ])
      expect(readableMessage(sentence, ACCOUNT_MESSAGE_FIELDS)).toBe(sentence);
  });

  it('says a refused account change outside the account dialog in the dialog’s words, the field by its full label', () => {
    expect(accountRefusal('client.email', 'The client.email field must be a valid email address.')).toBe(
      'Client email: enter an e-mail address such as name@example.com.',
    );
    expect(accountRefusal('coclient.last_name', 'The coclient.last_name field is required.')).toBe(
      'Co-client last name: required, fill it in.',
    );
    // The answer's summary names its field by the label too.
    expect(
      accountRefusal(null, 'The client.email field must be a valid email address. (and 1 more error)'),
    ).toBe('Client email must be a valid email address. (and 1 more error)');
    expect(accountRefusal(null, 'The given data was invalid.')).toBe('The given data was invalid.');
  });
});
