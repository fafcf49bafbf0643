// An attached file's media type: what the runner said, when it is one, else what its name's
// extension usually means. The service serves files by its own allowlist whatever they say
// (docs/design/attachments.md), so a wrong type costs a preview, never safety.

const BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  webm: 'video/webm',
  mp4: 'video/mp4',
  zip: 'application/zip',
  json: 'application/json',
  txt: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  xml: 'application/xml',
  pdf: 'application/pdf',
};

export const UNKNOWN_TYPE = 'application/octet-stream';

/** `type/subtype`, parameters allowed (`text/plain; charset=utf-8`), at most 255 characters. */
const MEDIA_TYPE =
  /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;\s*[a-z0-9!#$&^_.+-]+=("[^"\\\r\n]*"|[a-z0-9!#$&^_.+-]+))*$/i;

/** The type the runner gave, lower-cased, when it is a media type; else the one the name suggests. */
export function contentTypeOf(given: unknown, name: string): string {
  if (typeof given === 'string') {
    const type = given.trim();
    if (type.length <= 255 && MEDIA_TYPE.test(type)) return type.toLowerCase();
  }
  return guessedType(name);
}

export function guessedType(name: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return (extension && BY_EXTENSION[extension]) || UNKNOWN_TYPE;
}
