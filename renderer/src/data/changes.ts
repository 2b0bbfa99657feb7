// The one module through which every user change goes (DESIGN.md §3, Writes and the outbox): the
// record and its queued operation change in ONE transaction, coalesced so that the platform sees
// as few requests as the user's intent allows. Nothing else appends to the outbox; the push
// engine only moves operations through their states and removes them once the server has them.
//
// This is its public face; each kind of change is a module of changes/: create, update, delete,
// files, PIN reset, engagements sent, closed and reopened, forms sent, resent and closed, conflicts (and recreating what the server deleted), refused changes; the
// outbox's operations and its signals are shared by all of them and by the push engine.

export { createRecord, type NewRecord } from './changes/create.ts';
export {
  discardEngagementChange,
  isEngagementOp,
  queueCloseEngagement,
  queueReopenEngagement,
  queueSendEngagement,
  type EngagementSend,
} from './changes/engagements.ts';
export { deleteRecord, forgetAccount } from './changes/delete.ts';
export {
  discardFormChange,
  formTemplates,
  isFormOp,
  queueCloseForm,
  queueResendForm,
  queueSendForm,
  type FormSend,
} from './changes/forms.ts';
export { queueRemoveFile, queueUpload, type FileRef } from './changes/file-changes.ts';
export {
  DELETED_ON_SERVER,
  filesGoneWith,
  resolveConflict,
  type ConflictChoice,
  type PlatformFile,
} from './changes/conflicts.ts';
export {
  ChangeRefused,
  SYNC_TABLES,
  forgetRecord,
  recordOps,
  refreshRow,
  releaseFiles,
  rowsOf,
  statusOf,
  type AnyRow,
  type Change,
} from './changes/operations.ts';
export {
  OperationRejected,
  onOutbox,
  signalOutbox,
  whenSynced,
  type OutboxEvent,
} from './changes/outbox-events.ts';
export { journalSent } from './changes/journal.ts';
export { queueResetPin } from './changes/pin-reset.ts';
export { absorbBehindRefused, retryRejected } from './changes/refused.ts';
export { updateRecord } from './changes/update.ts';
