// Records in the shape of the version 2 interface.

import { ACCOUNT_ACTIVITIES } from '../catalog.ts';
import type {
  AccountActivity,
  AccountRecord,
  EngagementRecord,
  MemberRecord,
  TemplateRecord,
  UserRecord,
} from '../model.ts';
import type { Store } from '../store.ts';

export function memberV2(m: MemberRecord | null) {
  if (!m)
    return {
      id: null,
      first_name: null,
      last_name: null,
      email: null,
      phone: { code: null, number: null, country: null },
      status: null,
      pin: null,
    };
  return {
    id: m.id,
    first_name: m.first_name,
    last_name: m.last_name,
    email: m.email,
    phone: { ...m.phone },
    status: m.status,
    pin: m.pin,
  };
}

export function accountV2(store: Store, a: AccountRecord) {
  const stage = store.state.pipelines.find((p) => p.id === a.pipelineId);
  return {
    id: a.id,
    type: a.type,
    client: memberV2(a.client),
    coclient: memberV2(a.coclient),
    quality: store.quality(a),
    pipeline: stage
      ? { id: stage.id, icon: stage.icon, title: stage.title, description: stage.description }
      : null,
    favorited: a.favorited,
    archived: a.archived,
    created_at: a.created_at,
    updated_at: a.updated_at,
  };
}

export function activityV2(a: AccountActivity) {
  return {
    id: a.id,
    type: a.type,
    icon: ACCOUNT_ACTIVITIES[a.type]?.icon ?? 'i_star',
    description: a.description,
    options: a.options,
    created_at: a.created_at,
  };
}

export function engagementV2(e: EngagementRecord, base: string) {
  const { answers: _a, documents: _d, signatures: _s, history: _h, preview_html: _p, ...fields } = e;
  return { ...fields, url: `${base}/engagements/${e.id}/preview` };
}

export function templateSummary(t: TemplateRecord, user: UserRecord) {
  return {
    id: t.id,
    title: t.title,
    description: t.description,
    type: t.type,
    security: t.security,
    owned: t.ownerId === user.id,
  };
}
