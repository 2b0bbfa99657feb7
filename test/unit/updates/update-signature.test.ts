// An update's metadata is taken only with a detached Ed25519 signature that the key built into the
// app verifies: the release's own signature passes, another key's or altered metadata does not.

import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  updateMetadataSigned,
  updatePublicKey,
  verifiedMetadata,
} from '../../../electron/main/updates/update-signature.ts';

// latest-linux.yml as electron-builder writes it: the sha512 of each file is what makes the
// downloaded AppImage trusted, so the signature must cover every byte of it.
const METADATA = `version: 1.4.0
files:
  - url: Advisor-Desk-1.4.0.AppImage
    sha512: 3q2+7w8s0l2bLQ1nWgTQmQ8m3e5cY1v0rGm3bXg3y6qkF1cVt0z8G1Jc0Xk1n2m3o4p5q6r7s8t9u0v1w2x3y4==
    size: 118734592
path: Advisor-Desk-1.4.0.AppImage
sha512: 3q2+7w8s0l2bLQ1nWgTQmQ8m3e5cY1v0rGm3bXg3y6qkF1cVt0z8G1Jc0Xk1n2m3o4p5q6r7s8t9u0v1w2x3y4==
releaseDate: '2026-11-30T10:00:00.000Z'
`;

/** A release key pair: the public half as the build embeds it (PEM), the signature as the release writes it. */
function release() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const signs = (text: string) => sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64');
  return { pem, signs };
}

describe('the signature of update metadata', () => {
  it('accepts the metadata signed by the release key built into the app', () => {
    const { pem, signs } = release();
    const key = updatePublicKey(pem);
    expect(key).not.toBeNull();
    if (!key) return;
    const signature = signs(METADATA);
    expect(updateMetadataSigned(METADATA, signature, key)).toBe(true);
    // As the release writes the .sig file: base64 and a line end.
    expect(verifiedMetadata('latest-linux.yml', METADATA, `${signature}\n`, key)).toBe(METADATA);
  });

  it('refuses a signature made with another key', () => {
    const built = updatePublicKey(release().pem);
    const attacker = release();
    if (!built) throw new Error('no key');
    const signature = attacker.signs(METADATA);
    expect(updateMetadataSigned(METADATA, signature, built)).toBe(false);
    expect(() => verifiedMetadata('latest-linux.yml', METADATA, signature, built)).toThrow(
      'latest-linux.yml is not signed with the key of this build: nothing was downloaded or installed',
    );
  });

  it('refuses metadata altered after signing (another file hash, another version)', () => {
    const { pem, signs } = release();
    const key = updatePublicKey(pem);
    if (!key) throw new Error('no key');
    const signature = signs(METADATA);
    for (const altered of [
      METADATA.replace('sha512: 3q2+', 'sha512: 4q2+'),
      METADATA.replace('version: 1.4.0', 'version: 1.4.1'),
      `${METADATA}\n`,
    ])
      expect(updateMetadataSigned(altered, signature, key)).toBe(false);
  });

  it('refuses metadata with no signature, or a signature that is not one', () => {
    const key = updatePublicKey(release().pem);
    if (!key) throw new Error('no key');
    expect(() => verifiedMetadata('latest-linux.yml', METADATA, null, key)).toThrow(
      'latest-linux.yml has no signature (latest-linux.yml.sig): nothing was downloaded or installed',
    );
    for (const signature of ['', 'not base64 at all', Buffer.alloc(64).toString('base64'), 'AAAA'])
      expect(updateMetadataSigned(METADATA, signature, key), signature).toBe(false);
  });

  it('takes only an Ed25519 public key as the build key', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    expect(updatePublicKey(rsa.toString())).toBeNull();
    expect(updatePublicKey('')).toBeNull();
    expect(updatePublicKey('-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----')).toBeNull();
  });
});
