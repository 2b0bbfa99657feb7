// What the chaos scenario expects of every record it touched: the user's intent (created here,
// deleted here, the last value written to each field, the markers it carried) and what another
// user may have done to it meanwhile. The checker compares this with both sides at the end.

import type { SyncedTable } from '../../renderer/src/data/model.ts';
import type { Marker } from './values.ts';

export interface Intent {
  table: SyncedTable;
  /** Local id. */
  id: string;
  /** Storage key: the section (`assets`, `employment:client`) or single key (`details:client`); '' for accounts. */
  key: string;
  /** Local id of the record's account (its own for an account). */
  accountId: string;
  /** Created here: the server must end up with exactly one copy, unless it was deleted. */
  created: boolean;
  /** Every marker the record carried here: each server copy of it carries one of them. */
  markers: Set<Marker>;
  /** The last value written here, per field. */
  fields: Map<string, unknown>;
  /** File fields written here: the name of the last file chosen, or null when it was removed. */
  files: Map<string, string | null>;
  /** Fields another user may have changed: their final value is the user's choice, not checked. */
  othersFields: Set<string>;
  /** Another user may have deleted the record (and the user did not recreate it since). */
  othersDeleted: boolean;
  /** The user recreated it after another user's delete: it has a new server id. */
  recreated: boolean;
  /** Deleted here. */
  deleted: boolean;
  /** Dropped here by a conflict choice ("deleted on the server": discard). */
  discarded: boolean;
  /** Server ids it was known by. */
  serverIds: Set<string | number>;
}

export type RecordRef = Pick<Intent, 'table' | 'id' | 'key' | 'accountId'>;

export class Oracle {
  private readonly intents = new Map<string, Intent>();
  /** What happened to each record (`table:id`), in order: the story told with a finding. */
  private readonly notes = new Map<string, string[]>();
  /** Prefixed to every note: where the run is (the change number, the life of the app). */
  when = '';

  /** Adds a line to the story of a record. */
  note(table: SyncedTable, id: string, line: string): void {
    const key = `${table}:${id}`;
    this.notes.set(key, [...(this.notes.get(key) ?? []), `${this.when} ${line}`]);
  }

  /** The story (its last lines) of every record whose local id appears in `text`, and of its account. */
  storyOf(text: string, lines = 20): string[] {
    const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
    // A single record's id is its account's id and its key (`…:details:client`).
    const ids = new Set(text.match(new RegExp(`${uuid}(:[a-z-]+(:(client|coclient))?)?`, 'g')) ?? []);
    const keys = new Set([...this.notes.keys()].filter((key) => ids.has(key.slice(key.indexOf(':') + 1))));
    for (const intent of this.intents.values())
      if (keys.has(`${intent.table}:${intent.id}`)) keys.add(`accounts:${intent.accountId}`);
    return [...keys].flatMap((key) => [
      `history of ${key}:`,
      ...(this.notes.get(key) ?? []).slice(-lines).map((line) => `  ${line}`),
    ]);
  }

  /** The intent of a record, made on first mention. */
  of(ref: RecordRef): Intent {
    const key = `${ref.table}:${ref.id}`;
    let intent = this.intents.get(key);
    if (!intent) {
      intent = {
        ...ref,
        created: false,
        markers: new Set(),
        fields: new Map(),
        files: new Map(),
        othersFields: new Set(),
        othersDeleted: false,
        recreated: false,
        deleted: false,
        discarded: false,
        serverIds: new Set(),
      };
      this.intents.set(key, intent);
    }
    return intent;
  }

  find(table: SyncedTable, id: string): Intent | undefined {
    return this.intents.get(`${table}:${id}`);
  }

  all(): Intent[] {
    return [...this.intents.values()];
  }

  /** The user created the record with these fields. */
  created(ref: RecordRef, fields: Record<string, unknown>, marker: Marker | null): void {
    this.of(ref).created = true;
    this.note(ref.table, ref.id, `created ${JSON.stringify(fields)}`);
    this.record(ref, fields, marker);
  }

  /** The user wrote these fields (a create, an edit, a fix of a refused change). */
  wrote(ref: RecordRef, fields: Record<string, unknown>, marker: Marker | null): void {
    this.note(ref.table, ref.id, `wrote ${JSON.stringify(fields)}`);
    this.record(ref, fields, marker);
  }

  private record(ref: RecordRef, fields: Record<string, unknown>, marker: Marker | null): void {
    const intent = this.of(ref);
    for (const [field, value] of Object.entries(fields)) intent.fields.set(field, value);
    if (marker !== null) intent.markers.add(marker);
  }

  /** The user chose a file for a file field (its name), or removed it (null). */
  fileChosen(ref: RecordRef, field: string, name: string | null): void {
    this.note(ref.table, ref.id, name ? `chose ${name} for ${field}` : `removed the file of ${field}`);
    this.of(ref).files.set(field, name);
  }

  deleted(ref: RecordRef, serverId: string | number | null): void {
    this.note(ref.table, ref.id, `deleted (${String(serverId)})`);
    const intent = this.of(ref);
    intent.deleted = true;
    if (serverId !== null) intent.serverIds.add(serverId);
  }

  /** Another user changed (or tried to change) these fields. */
  othersChanged(ref: RecordRef, fields: readonly string[]): void {
    this.note(ref.table, ref.id, `the assistant changes ${fields.join(', ')}`);
    const intent = this.of(ref);
    for (const field of fields) intent.othersFields.add(field);
  }

  /**
   * Another user deleted the record. Files it held on the server (`heldThere`: uploaded, no
   * longer waiting here) went with it; a recreate cannot send them again (README: choose them
   * again), so they are no longer expected.
   */
  othersDeleted(ref: RecordRef, serverId: string | number, heldThere: readonly string[] = []): void {
    this.note(ref.table, ref.id, `the assistant deletes ${serverId}`);
    const intent = this.of(ref);
    intent.othersDeleted = true;
    intent.serverIds.add(serverId);
    for (const field of heldThere)
      if (intent.files.delete(field)) this.note(ref.table, ref.id, `its ${field} went with it`);
  }

  /** The user answered "deleted on the server": recreate (`mine`) or discard. */
  deletedOnServerAnswered(ref: RecordRef, recreate: boolean): void {
    this.note(
      ref.table,
      ref.id,
      recreate ? 'recreated after the delete there' : 'discarded after the delete there',
    );
    const intent = this.of(ref);
    if (recreate) {
      intent.recreated = true;
      intent.othersDeleted = false;
    } else intent.discarded = true;
  }
}
