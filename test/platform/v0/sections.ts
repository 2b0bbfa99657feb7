// The financial data sections of the 0.0.1 interface, every one served from its descriptor in
// sections.ts: collections (list, create, read, update, delete), single records, the employment
// document, and `/define`, which describes the same rules the validation applies.

import { invalid, notFound } from '../errors.ts';
import type { AccountRecord, SectionItem } from '../model.ts';
import type { Context, Router } from '../router.ts';
import {
  COLLECTIONS,
  RELATION_SECTION,
  SINGLES,
  sectionByEntity,
  type FieldSpec,
  type SectionSpec,
  FREQUENCIES,
} from '../sections.ts';
import type { Store } from '../store.ts';
import {
  completeFields,
  fileObject,
  validateSection,
  type Relation,
  type SectionContext,
} from '../validate.ts';
import { MARITAL_STATUSES } from './accounts.ts';
import { fileUrl } from './shape.ts';
import { readUpload, requireUpload, sniff } from './upload.ts';

const FILE_URL = /\/files\/([0-9a-f-]{36})\//;
/** Stands for a file uploaded with the request, until the body has passed validation. */
const UPLOADED = 'uploaded-with-this-request';

/**
 * A File url must point at a stored file of the account's team (another team's file reads as
 * not found there, so it cannot be attached here either); `uploaded` accepts the request's upload.
 */
function context(store: Store, account: AccountRecord, uploaded = false): SectionContext {
  return {
    account,
    items: (path) => store.items(account, path),
    fileIdFromUrl: (url) => {
      if (uploaded && url === UPLOADED) return UPLOADED;
      const id = FILE_URL.exec(url)?.[1];
      const file = id ? store.file(id) : null;
      return file && file.teamId === account.teamId ? file.id : null;
    },
  };
}

function relationLabel(store: Store, account: AccountRecord, r: Relation): string | null {
  switch (r.type) {
    case 'client':
      return store.memberName(account.client);
    case 'coclient':
      return store.memberName(account.coclient);
    case 'joint':
      return account.coclient
        ? `${store.memberName(account.client)} & ${store.memberName(account.coclient)}`
        : null;
    case 'children':
      return 'Children';
    case 'grandchildren':
      return 'Grandchildren';
  }
  const path = RELATION_SECTION[r.type];
  const item = path ? store.items(account, path).find((i) => i.id === r.id) : undefined;
  if (!item) return null;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  if (r.type === 'FamilyMember' || r.type === 'Contact')
    return `${text(item.fields.first_name)} ${text(item.fields.last_name)}`.trim();
  const spec = COLLECTIONS.find((s) => s.path === path);
  const label = spec?.labelField ? item.fields[spec.labelField] : null;
  return typeof label === 'string' ? label : null;
}

/** Section fields as the interface returns them: relation labels filled in, file ids as File objects. */
function render(
  store: Store,
  base: string,
  account: AccountRecord,
  spec: SectionSpec,
  fields: Record<string, unknown>,
) {
  const out = completeFields(spec, fields);
  for (const [field, fieldSpec] of Object.entries(spec.fields)) {
    const v = out[field];
    if (fieldSpec.kind === 'relation' && v)
      out[field] = { ...(v as Relation), label: relationLabel(store, account, v as Relation) };
    if (fieldSpec.kind === 'file') {
      const file = store.file(v as string | null);
      out[field] = file ? fileObject(file, fileUrl(base, file.id, file.name)) : null;
    }
  }
  return out;
}

const storageKey = (spec: SectionSpec, role?: string) =>
  spec.perMember ? `${spec.path}:${role}` : spec.path;

/** Employment of a member needs that member; the co-client's sections 404 when there is none. */
function owner(ctx: Context, spec: SectionSpec, role?: string): AccountRecord {
  const account = ctx.store.account(ctx.user, ctx.params.accountId as string);
  if (spec.perMember && role) ctx.store.member(account, role);
  return account;
}

function written(ctx: Context, account: AccountRecord): void {
  const { store, user } = ctx;
  store.require(user, store.accountPermission(account.type, 'update'));
}

function changed(ctx: Context, account: AccountRecord, spec: SectionSpec): void {
  ctx.store.touch(account);
  ctx.store.userActivity(
    ctx.user,
    account.teamId,
    'account.currentdata.updated',
    `${spec.entity} data of ${ctx.store.memberName(account.client)} was updated`,
  );
}

/**
 * The Documents section takes its file as multipart (field `file`, relation in field `relation` as
 * JSON); JSON bodies must point at a stored file. An upload stands in the body as UPLOADED and is
 * stored by `keep` only once the body has passed validation, so a refused request leaves no file.
 */
async function documentBody(
  ctx: Context,
  account: AccountRecord,
): Promise<{ body: unknown; uploaded: boolean; keep: (fields: Record<string, unknown>) => void }> {
  if (!ctx.req.isMultipart()) return { body: ctx.body, uploaded: false, keep: () => undefined };
  const upload = await readUpload(ctx);
  const body: Record<string, unknown> = {};
  if (upload.fields.relation) {
    try {
      body.relation = JSON.parse(upload.fields.relation);
    } catch {
      body.relation = upload.fields.relation;
    }
  }
  const file = upload.file && upload.file.bytes.length > 0 ? upload.file : null;
  if (file) body.file = { url: UPLOADED };
  return {
    body,
    uploaded: file !== null,
    keep: (fields) => {
      if (!file || fields.file !== UPLOADED) return;
      const mime = /^[\w.+-]+\/[\w.+-]+$/.test(file.mime) ? file.mime : 'application/octet-stream';
      fields.file = ctx.store.saveFile(
        file.name,
        sniff(file.bytes) ?? mime,
        file.bytes,
        'document',
        account.teamId,
      ).id;
    },
  };
}

/** Validates a section body; a Documents upload is stored only when the body is accepted. */
async function readSection(
  ctx: Context,
  spec: SectionSpec,
  account: AccountRecord,
  existing: Record<string, unknown> | null,
  readOnly: readonly string[],
): Promise<Record<string, unknown>> {
  const { body, uploaded, keep } =
    spec.entity === 'Document'
      ? await documentBody(ctx, account)
      : { body: ctx.body, uploaded: false, keep: () => undefined };
  const result = validateSection(spec, body, existing, context(ctx.store, account, uploaded), readOnly);
  if (!result.ok) throw invalid(result.messages);
  keep(result.value);
  return result.value;
}

function registerCollection(r: Router, spec: SectionSpec, role?: 'client' | 'coclient'): void {
  const path = spec.perMember
    ? `/accounts/:accountId/${role}/${spec.path}`
    : `/accounts/:accountId/${spec.path}`;
  const readOnly = spec.entity === 'Employment' ? ['document'] : [];
  const items = (ctx: Context, account: AccountRecord): SectionItem[] => {
    const all = ctx.store.sections(account).sections;
    return (all[storageKey(spec, role)] ??= []);
  };
  const find = (ctx: Context, account: AccountRecord) => {
    const item = items(ctx, account).find((i) => i.id === ctx.params.itemId);
    if (!item) throw notFound(spec.entity);
    return item;
  };
  const show = (ctx: Context, account: AccountRecord, item: SectionItem, withId = true) => ({
    ...(withId ? { id: item.id } : {}),
    ...render(ctx.store, ctx.base.v0, account, spec, item.fields),
  });

  r.get(path, (ctx) => {
    const account = owner(ctx, spec, role);
    return items(ctx, account).map((item) => show(ctx, account, item));
  });
  r.post(path, async (ctx) => {
    const account = owner(ctx, spec, role);
    written(ctx, account);
    const fields = await readSection(ctx, spec, account, null, readOnly);
    const item: SectionItem = { id: ctx.store.newItemId(account), fields };
    items(ctx, account).push(item);
    changed(ctx, account, spec);
    ctx.reply.code(201);
    return show(ctx, account, item);
  });
  r.get(`${path}/:itemId`, (ctx) => {
    const account = owner(ctx, spec, role);
    return show(ctx, account, find(ctx, account));
  });
  // The document says an update's answer may omit the id; the sandbox does omit it.
  r.put(`${path}/:itemId`, async (ctx) => {
    const account = owner(ctx, spec, role);
    const item = find(ctx, account);
    written(ctx, account);
    item.fields = await readSection(ctx, spec, account, item.fields, readOnly);
    changed(ctx, account, spec);
    return show(ctx, account, item, false);
  });
  r.delete(`${path}/:itemId`, (ctx) => {
    const account = owner(ctx, spec, role);
    const item = find(ctx, account);
    written(ctx, account);
    const list = items(ctx, account);
    list.splice(list.indexOf(item), 1);
    changed(ctx, account, spec);
  });
  if (spec.entity === 'Employment') {
    r.put(`${path}/:itemId/document`, async (ctx) => {
      const account = owner(ctx, spec, role);
      const item = find(ctx, account);
      written(ctx, account);
      const { file } = await requireUpload(ctx, 'image-or-pdf');
      const stored = ctx.store.saveFile(file.name, file.mime, file.bytes, 'document', account.teamId);
      item.fields.document = stored.id;
      changed(ctx, account, spec);
      return fileObject(stored, fileUrl(ctx.base.v0, stored.id, stored.name));
    });
    r.delete(`${path}/:itemId/document`, (ctx) => {
      const account = owner(ctx, spec, role);
      const item = find(ctx, account);
      written(ctx, account);
      item.fields.document = null;
      changed(ctx, account, spec);
    });
  }
}

function registerSingle(r: Router, spec: SectionSpec, role?: 'client' | 'coclient'): void {
  const path = spec.perMember
    ? `/accounts/:accountId/${role}/${spec.path}`
    : `/accounts/:accountId/${spec.path}`;
  const key = storageKey(spec, role);
  r.get(path, (ctx) => {
    const account = owner(ctx, spec, role);
    return render(ctx.store, ctx.base.v0, account, spec, ctx.store.sections(account).singles[key] ?? {});
  });
  r.post(path, (ctx) => {
    const account = owner(ctx, spec, role);
    written(ctx, account);
    const singles = ctx.store.sections(account).singles;
    const result = validateSection(spec, ctx.body, singles[key] ?? {}, context(ctx.store, account));
    if (!result.ok) throw invalid(result.messages);
    singles[key] = result.value;
    changed(ctx, account, spec);
    ctx.reply.code(201);
    return render(ctx.store, ctx.base.v0, account, spec, result.value);
  });
}

// ---- /define -------------------------------------------------------------------------------

interface PropertyDefinition {
  type: string;
  read: boolean;
  write: boolean;
  required: boolean;
  values: string | null;
}
type Definition = PropertyDefinition | { [sub: string]: Definition };

const prop = (
  type: string,
  required = false,
  values: string | null = null,
  write = true,
): PropertyDefinition => ({ type, read: true, write, required, values });

function defineField(spec: FieldSpec, required: boolean, write: boolean): Definition {
  switch (spec.kind) {
    case 'enum':
      return prop('string', required, spec.values.join(','), write);
    case 'currency':
      return {
        value: prop('float', required, null, write),
        frequency: prop('string', false, FREQUENCIES.join(','), write),
      };
    case 'relation':
      return {
        type: prop('string', required, spec.types.filter((t) => t !== 'ExenseVariable').join(','), write),
        id: prop('string', false, null, write),
        label: prop('string', false, null, false),
      };
    case 'address':
      return Object.fromEntries(
        ['line1', 'line2', 'city', 'state', 'zip', 'country'].map((k) => [
          k,
          prop('string', false, null, write),
        ]),
      );
    case 'target':
      return { value: prop('float', required, null, write), date: prop('date', required, null, write) };
    // Only the url is written (it points at a stored file); the rest of a File is read-only, hence never required.
    case 'file':
      return {
        type: prop('string', false, 'image,document', false),
        url: prop('string', required, null, write),
        filetype: prop('string', false, null, false),
        filesize: prop('integer', false, null, false),
        filename: prop('string', false, null, false),
      };
    default:
      return prop(spec.kind, required, null, write);
  }
}

export function defineSection(spec: SectionSpec): Record<string, Definition> {
  const out: Record<string, Definition> = spec.single ? {} : { id: prop('string', false, null, false) };
  for (const [field, fieldSpec] of Object.entries(spec.fields)) {
    const write = !(spec.entity === 'Employment' && field === 'document');
    out[field] = defineField(fieldSpec, spec.required.includes(field), write);
  }
  return out;
}

const OTHER_DEFINITIONS: Record<string, () => Record<string, Definition>> = {
  account: () => ({
    id: prop('integer', false, null, false),
    type: prop('string', true, 'clients,prospects'),
    client: memberDefinition(true),
    coclient: memberDefinition(false),
    created_at: prop('timestamp', false, null, false),
    updated_at: prop('timestamp', false, null, false),
  }),
  fullmember: () => ({
    first_name: prop('string', true),
    middle_initial: prop('string'),
    last_name: prop('string'),
    gender: prop('string', false, 'male,female'),
    birth_date: prop('timestamp'),
    marital_status: prop('string', false, MARITAL_STATUSES.join(',')),
    previous_marriages: prop('integer'),
    citizenship: { country: prop('string') },
    email: prop('string', true),
    phone: prop('string'),
    home_phone: prop('string'),
    work_phone: prop('string'),
    address: defineField({ kind: 'address' }, false, true),
    photo: defineField({ kind: 'file' }, false, false),
    risk_score: prop('float'),
    comments: prop('string'),
    drivers_license: {
      number: prop('string'),
      issue_date: prop('timestamp'),
      expire_date: prop('timestamp'),
      jurisdiction: { state: prop('string'), country: prop('string') },
      document: defineField({ kind: 'file' }, false, false),
    },
  }),
  security: () => ({
    account_id: prop('integer', false, null, false),
    type: prop('string', false, 'client,co-client', false),
    status: prop('string', false, 'BLOCKED,ACTIVE,NEW', false),
    pin: prop('integer', false, null, false),
  }),
};

function memberDefinition(required: boolean): Record<string, Definition> {
  return {
    first_name: prop('string', required),
    last_name: prop('string'),
    email: prop('string', required),
    phone: prop('string'),
    status: prop('string', false, 'ACTIVE,NEW,BLOCKED', false),
    type: prop('string', false, 'CLIENT,COCLIENT', false),
  };
}

function define(ctx: Context) {
  ctx.store.account(ctx.user, ctx.params.entityId as string);
  const name = (ctx.params.entity as string).toLowerCase().replace(/[-_\s]/g, '');
  const spec = sectionByEntity(name);
  if (spec) return defineSection(spec);
  const alias: Record<string, string> = {
    accounts: 'account',
    member: 'fullmember',
    details: 'fullmember',
    accountfullmember: 'fullmember',
  };
  const key = Object.hasOwn(alias, name) ? (alias[name] as string) : name;
  const other = Object.hasOwn(OTHER_DEFINITIONS, key) ? OTHER_DEFINITIONS[key] : undefined;
  if (!other) throw notFound(`Entity ${ctx.params.entity}`);
  return other();
}

export function registerSections(r: Router): void {
  for (const spec of [...COLLECTIONS, ...SINGLES]) {
    const register = spec.single ? registerSingle : registerCollection;
    if (spec.perMember) {
      register(r, spec, 'client');
      register(r, spec, 'coclient');
    } else register(r, spec);
  }
  r.get('/define/:entity/:entityId', define);
}
