// What the user's role lets them do, as the user resource the sync pulled says: the change module
// refuses in words what the platform would refuse with a 403. Nothing pulled yet: the platform decides.

import { permissionReason } from '@shared/account-rules.ts';
import { readWire } from '@shared/wire/parse.ts';
import { User } from '@shared/wire/v2/user.ts';
import { CONFIG_KEYS, configEntry } from './config.ts';
import type { AdvisorDb } from './db.ts';

/** The version 2 user this computer holds (permissions, templates), or null before the first pull. */
export async function pulledUser(db: AdvisorDb): Promise<User | null> {
  return readWire(User, (await configEntry(db, CONFIG_KEYS.user))?.data) ?? null;
}

/** Why the user may not do what the permission names, or null when they may (or it is not known). */
export async function permissionRefusal(db: AdvisorDb, key: string): Promise<string | null> {
  const permissions = (await pulledUser(db))?.permissions;
  if (!permissions) return null;
  return permissions[key] === true ? null : permissionReason(key);
}
