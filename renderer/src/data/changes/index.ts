// The one module through which every user change goes (DESIGN.md §3, Writes and the outbox): the
// record and its queued operation change in ONE transaction, coalesced so that the platform sees
// as few requests as the user's intent allows. Nothing else appends to the outbox; the push
// engine only moves operations through their states and removes them once the server has them.
//
// This is its public face; each kind of change is a module beside it: create, update, delete,
// files, PIN reset, engagements sent, closed and reopened, forms sent, resent and closed, conflicts (and recreating what the server deleted), refused changes; the
// outbox's operations and its signals are shared by all of them and by the push engine.

export { createRecord, type NewRecord } from './create.ts';
export {
  discardEngagementChange,
  isEngagementOp,
  queueCloseEngagement,
  queueReopenEngagement,
  queueSendEngagement,
  type EngagementSend,
} from './engagements.ts';
export { deleteRecord, forgetAccount } from './delete.ts';
export {
  discardFormChange,
  formTemplates,
  isFormOp,
  queueCloseForm,
  queueResendForm,
  queueSendForm,
  type FormSend,
} from './forms.ts';
export { queueRemoveFile, queueUpload, type FileRef } from './file-changes.ts';
export {
  DELETED_ON_SERVER,
  filesGoneWith,
  resolveConflict,
  type ConflictChoice,
  type PlatformFile,
} from './conflicts.ts';
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
} from './operations.ts';
export { OperationRejected, onOutbox, signalOutbox, whenSynced, type OutboxEvent } from './outbox-events.ts';
export { journalSent } from './journal.ts';
export { queueResetPin } from './pin-reset.ts';
export { absorbBehindRefused, retryRejected } from './refused.ts';
export { updateRecord } from './update.ts';
