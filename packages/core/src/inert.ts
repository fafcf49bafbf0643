// A leaf: errors.ts and output/logger.ts both use it, and errors.ts must not depend on output/.

/**
 * Text quoted from outside (a service's error body, a run id, a file name) made inert for a
 * terminal: C0 and C1 control characters, DEL and the bidirectional overrides are written
 * as `\u001b`-style escapes, so what a service answers cannot erase our line, recolour it,
 * set the window title or reorder it into a fake summary. Tabs stay; line breaks stay only
 * when asked for.
 */
export function inert(text: string, { keepLineBreaks = false } = {}): string {
  return text.replace(keepLineBreaks ? CONTROLS_BUT_LINE_BREAKS : CONTROLS, escapeCharacter);
}

const CONTROLS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const CONTROLS_BUT_LINE_BREAKS =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escapeCharacter(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
