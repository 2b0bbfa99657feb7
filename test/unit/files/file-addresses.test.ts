// The interfaces' file addresses (the two API documents) and nothing else on the origin.

import { describe, expect, it } from 'vitest';
import { fileAddressProblem } from '../../../electron/main/files/file-addresses.ts';

const v2 = new URL('https://platform.example/api/v2');
const v0 = new URL('https://platform.example/api/v0');
const problem = (api: 'v2' | 'v0', address: string) =>
  fileAddressProblem(api, api === 'v2' ? v2 : v0, new URL(address));

describe('fileAddressProblem', () => {
  it('accepts the files each document lists', () => {
    for (const path of [
      '/accounts/12/file/document/e1/0/passport.pdf',
      '/accounts/12/file/image/e2/face.png',
      '/engagements/7/documents/f1/e1/0/statement.pdf',
      '/engagements/7/documents/f1/e1/0',
      '/engagements/7/signatures/f2/sig.png',
      '/engagements/7/preview',
    ])
      expect(problem('v2', `https://platform.example/api/v2${path}`), path).toBeNull();
    expect(problem('v2', 'https://platform.example/api/v2/engagements/7/preview?version=3')).toBeNull();
    for (const path of [
      '/files/9f1c/face.png',
      '/user/reports/4/ALL/2026-01-01/2026-03-31/PDF',
      '/accounts/12/reports/4/CSV',
    ])
      expect(problem('v0', `https://platform.example/api/v0${path}`), path).toBeNull();
  });

  it('refuses the rest of the origin, the rest of the interface and the other interface', () => {
    for (const [api, address] of [
      ['v0', 'https://platform.example/__sandbox/state'],
      ['v0', 'https://platform.example/oauth/token'],
      ['v0', 'https://platform.example/api/v0/user'],
      ['v0', 'https://platform.example/api/v0/files/'],
      ['v0', 'https://platform.example/api/v0files/x'],
      ['v2', 'https://platform.example/api/v0/files/a/b.png'],
      ['v0', 'https://platform.example/api/v2/engagements/7/preview'],
      ['v2', 'https://platform.example/api/v2/accounts/12'],
      ['v2', 'https://platform.example/api/v2/engagements/7/preview/x'],
      ['v0', 'https://other.example/api/v0/files/a/b.png'],
      ['v0', 'http://platform.example/api/v0/files/a/b.png'],
      ['v0', 'https://platform.example:8443/api/v0/files/a/b.png'],
      ['v0', 'https://u:p@platform.example/api/v0/files/a/b.png'],
    ] as const)
      expect(problem(api, address), address).toMatch(/^The address is not a file of interface/);
  });

  it('refuses escaped path tricks a server might decode', () => {
    expect(problem('v0', 'https://platform.example/api/v0/files/..%2f..%2f__sandbox%2fstate')).toMatch(
      /escaped/,
    );
    expect(problem('v0', 'https://platform.example/api/v0/files/a%5c..%5c..%5cx')).toMatch(/escaped/);
    expect(problem('v0', 'https://platform.example/api/v0/files/%E0%A4%A/x')).toMatch(/invalid %-escape/);
    // Dot segments, escaped or not, are resolved by the URL parser before the check: out of /files/.
    expect(problem('v0', 'https://platform.example/api/v0/files/%2e%2e/user')).toMatch(/not a file/);
  });

  it('a base below a path prefix, as {base_url_v0} may be', () => {
    const base = new URL('https://platform.example/advisor/v0.0.1');
    expect(
      fileAddressProblem('v0', base, new URL('https://platform.example/advisor/v0.0.1/files/a/b')),
    ).toBeNull();
    expect(fileAddressProblem('v0', base, new URL('https://platform.example/files/a/b'))).toMatch(
      /files are at https:\/\/platform\.example\/advisor\/v0\.0\.1\/files\//,
    );
  });
});
