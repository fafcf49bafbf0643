// The attachments' stage and replay's uploads: loaded only when a run has files to send
// (docs/design/attachments.md; the dynamic import is in attached-files.ts and
// spool/replay.ts), so a run without any pays nothing for them.

export { replayAttachments } from './replay-files.js';
export { AttachmentStage, type HeldResult } from './stage.js';
