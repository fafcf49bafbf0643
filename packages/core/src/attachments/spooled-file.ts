/**
 * A file a result names (`attachments`) that was not uploaded: replay uploads it once its run
 * takes files, if it is still where it was and unchanged (the same size and hash), or from
 * `body` when it was only in memory (a log's tail, a Cucumber `attach`).
 */
export interface SpoolAttachmentRecord {
  type: 'attachment';
  sha256: string;
  size: number;
  /** Its name, for the lines that say what became of it. */
  name: string;
  /** The test it belongs to (`suite > test`), for those lines too. */
  test?: string;
  /** Where the file was when it was hashed (absolute). */
  path?: string;
  /** The bytes, base64, of a file that was only in memory. */
  body?: string;
}
