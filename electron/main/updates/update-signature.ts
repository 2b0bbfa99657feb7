// The signature of an update's metadata. electron-updater checks each file it downloads against the
// sha512 that the feed's `latest*.yml` gives for it, so those files can be trusted only as far as
// the yml can. Unsigned builds (Linux, or Windows without a publisher) check nothing more, so the
// app takes an update's metadata only with a detached Ed25519 signature (`latest*.yml.sig`, base64)
// that the public key built into this app verifies. The release signs it with the matching
// private key, which never leaves the release machine (see docs/packaging.md#updates).

import { createPublicKey, verify, type KeyObject } from 'node:crypto';

/** The signature's file beside the metadata file it signs. */
export const SIGNATURE_SUFFIX = '.sig';

/** The public key as the build gives it (PEM, SPKI), or null when it is not an Ed25519 key. */
export function updatePublicKey(pem: string | null | undefined): KeyObject | null {
  if (!pem || pem.trim() === '') return null;
  try {
    const key = createPublicKey(pem);
    return key.asymmetricKeyType === 'ed25519' ? key : null;
  } catch {
    return null;
  }
}

/** True only when `signature` (base64) is this key's Ed25519 signature of exactly these bytes. */
export function updateMetadataSigned(metadata: string, signature: string, key: KeyObject): boolean {
  const bytes = Buffer.from(signature.trim(), 'base64');
  if (bytes.length !== 64) return false;
  try {
    return verify(null, Buffer.from(metadata, 'utf8'), key, bytes);
  } catch {
    return false;
  }
}

/** The metadata when its signature holds; otherwise an error saying nothing will be installed. */
export function verifiedMetadata(
  file: string,
  metadata: string | null,
  signature: string | null,
  key: KeyObject,
): string {
  if (metadata === null) throw new Error(`the update feed sent no ${file}`);
  if (signature === null)
    throw new Error(
      `${file} has no signature (${file}${SIGNATURE_SUFFIX}): nothing was downloaded or installed`,
    );
  if (!updateMetadataSigned(metadata, signature, key))
    throw new Error(`${file} is not signed with the key of this build: nothing was downloaded or installed`);
  return metadata;
}
