// The attachments' stage and replay's uploads: loaded only when a run has files to send
// (docs/design.md, "Attachments"; the dynamic import is in delivery/attached-files.ts and
// replay.ts), so a run without any pays nothing for them.

export { replayAttachments } from './replay-files.js';
export { AttachmentStage, type HeldResult } from './stage.js';
