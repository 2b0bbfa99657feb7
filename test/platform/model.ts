// The one store behind both interfaces. Each interface renders these records in its own shape
// (v2/shape.ts, v0/shape.ts); nothing here knows either shape. The whole state is plain JSON so
// that `--data` can save it and `/__sandbox/state` can dump it.

import type { Permission } from './catalog.ts';

export type MemberRole = 'client' | 'coclient';
export type SecurityStatus = 'NEW' | 'ACTIVE' | 'BLOCKED';

export interface Phone {
  code: string | null;
  number: string | null;
  country: string | null;
}

export interface Address {
  line1?: string | null;
  line2?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  country?: string | null;
}

export interface DriversLicense {
  number: string | null;
  issue_date: string | null;
  expire_date: string | null;
  jurisdiction: { state: string | null; country: string | null };
  /** Id of a stored file. */
  document: string | null;
}

export interface MemberRecord {
  id: number;
  first_name: string;
  middle_initial: string | null;
  last_name: string;
  email: string;
  phone: Phone;
  home_phone: string | null;
  work_phone: string | null;
  gender: 'male' | 'female' | null;
  birth_date: string | null;
  marital_status: string | null;
  previous_marriages: number | null;
  citizenship: { country: string | null };
  address: Address;
  /** Id of a stored file. */
  photo: string | null;
  risk_score: number | null;
  comments: string | null;
  drivers_license: DriversLicense;
  /** Form-access security, shown as the member status in both interfaces. */
  status: SecurityStatus;
  /** Numeric text with no leading zero, so that it reads the same as an integer. */
  pin: string;
}

/** An item of a collection section; `fields` holds the normalized values the interface returns. */
export interface SectionItem {
  id: string;
  fields: Record<string, unknown>;
}

export interface ProfileValue {
  id: string;
  dataset_id: string;
  member_id: number;
  row_id: string;
  type: string;
  value: string;
  /** Stored file behind a FILE or IMAGE value. */
  file?: string;
}

export interface AccountRecord {
  id: number;
  /** Prefix of its section item ids (`<uuid>|<uuid>`). */
  uuid: string;
  teamId: number;
  type: 'CLIENT' | 'PROSPECT';
  client: MemberRecord;
  coclient: MemberRecord | null;
  pipelineId: string;
  favorited: boolean;
  archived: boolean;
  created_at: string;
  updated_at: string;
  /** Collection sections keyed by path (`assets`, `employment:client` …); absent until first used. */
  sections?: Record<string, SectionItem[]>;
  /** Single-record sections keyed by path (`expenses-fixed`, `income:coclient` …). */
  singles?: Record<string, Record<string, unknown>>;
  profile: ProfileValue[];
}

export interface StoredFile {
  id: string;
  name: string;
  mime: string;
  /** Base64 of the bytes. */
  data: string;
  /** Bytes. */
  size: number;
  kind: 'image' | 'document';
  created_at: string;
  /** Team of the account the file belongs to; files of another team read as not found. */
  teamId?: number;
}

export interface AccountActivity {
  id: number;
  accountId: number;
  type: string;
  description: string;
  options: Record<string, string>;
  created_at: string;
}

export interface UserActivity {
  id: number;
  userId: number;
  teamId: number;
  type: string;
  description: string;
  created_at: string;
}

export interface Structure {
  panels: { id: string; type: string; title: string; description: string | null; position: number }[];
  groups: {
    id: string;
    panel_id: string;
    type: string;
    title: string;
    description: string | null;
    position: number;
  }[];
  elements: {
    id: string;
    group_id: string;
    type: string;
    title: string;
    description: string | null;
    size: number;
    position: string;
  }[];
}

export interface TemplateRecord {
  id: string;
  key: string;
  teamId: number;
  ownerId: number;
  title: string;
  description: string;
  /** Version 2 template type. */
  type: 'LEADGEN' | 'OTHER';
  security: 'LOW' | 'HIGH';
  /** Version 0.0.1 template type: how a contact authenticates. */
  auth: 'passwordless' | 'password' | 'email-pin' | 'sms-pin';
  status: 'published';
  modified: boolean;
  default: boolean;
  tags: string[];
  structure: Structure;
}

export interface EngagementAnswer {
  element_id: string;
  value: string;
  /** Set where the element is connected to the profile (a dataset element). */
  dataset_id: string | null;
}

export interface EngagementRecord {
  id: string;
  account_id: number;
  member_id: number;
  template_id: string;
  title: string;
  description: string;
  security: 'LOW' | 'HIGH';
  name: string;
  email: string;
  status: 'NEW' | 'COMPLETED';
  filled: number;
  time: number;
  created_at: string;
  opened_at: string | null;
  email_reminders: boolean;
  reminded_at: string | null;
  email_completed: boolean;
  completed_at: string | null;
  answers: EngagementAnswer[];
  documents: { id: string; field_id: string; title: string; files: string[]; updated_at: string }[];
  signatures: {
    id: number;
    field_id: string;
    title: string;
    name: string;
    email: string;
    ip: string;
    signed_at: string;
    file: string;
  }[];
  history: {
    id: string;
    author: string;
    created_at: string;
    completed_at: string;
    /** The answers of that version, which its preview shows (absent in seeded history: the current ones). */
    answers?: EngagementAnswer[];
  }[];
  /**
   * Sandbox only: HTML its preview answers instead of the page made from the answers, set by
   * `POST /__sandbox/engagements/{id}/preview` (the hostile page of the preview's security tests).
   */
  preview_html?: string;
}

/** An email the platform sent about an engagement (the sandbox sends none; it records them). */
export interface EmailRecord {
  engagement_id: string;
  /** `new` (email_new at create), `reminder` (email_reminders), `completed` (email_completed). */
  kind: 'new' | 'reminder' | 'completed';
  to: string;
  at: string;
}

export interface FormRecord {
  key: string;
  account_id: number;
  definition_key: string;
  template_id: string;
  status: 'NEW' | 'IN_PROGRESS' | 'CLOSED';
  recipients: { role: string; name: string }[];
  created_at: string;
  updated_at: string;
  opened_at: string | null;
  reminded_at: string | null;
  closed_at: string | null;
}

export interface ReportRecord {
  id: string;
  key: number;
  teamId: number;
  type: 'FORMDEFINITION' | 'DATADEFINITION';
  source: string;
  title: string;
  description: string;
  created_at: string;
  updated_at: string;
  tags: string[];
}

export interface UserRecord {
  id: number;
  email: string;
  /** scrypt, `salt:hash` in hex. */
  passwordHash: string;
  first_name: string;
  last_name: string;
  phone: Phone;
  timezone: string;
  currency: string;
  company: string;
  company_email: string;
  company_phone: string;
  /** Ids of stored files. */
  photo: string | null;
  company_logo: string | null;
  teamIds: number[];
  currentTeamId: number;
  permissions: Record<Permission, boolean>;
}

export interface PipelineStage {
  id: string;
  type: 'PROSPECT' | 'CLIENT';
  title: string;
  description: string;
  icon: string;
  position: number;
}

export interface State {
  version: 1;
  seed: number;
  users: UserRecord[];
  teams: { id: number; name: string }[];
  pipelines: PipelineStage[];
  dataset: Structure;
  templates: TemplateRecord[];
  accounts: AccountRecord[];
  engagements: EngagementRecord[];
  forms: FormRecord[];
  reports: ReportRecord[];
  accountActivities: AccountActivity[];
  userActivities: UserActivity[];
  /** Emails about engagements, in the order sent; absent in states saved before they were kept. */
  emails?: EmailRecord[];
  files: Record<string, StoredFile>;
  counters: {
    account: number;
    member: number;
    accountActivity: number;
    userActivity: number;
    signature: number;
    form: number;
  };
}
