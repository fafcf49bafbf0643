import { openReport, type ReportFormat } from '../../src/reports/open-report.js';

/** Every event a format's reader yields for `file`, opened as `upload` opens it, read as `format`. */
export async function eventsOfReport<E>(
  file: string,
  shownAs: string,
  format: ReportFormat,
  read: (chunks: AsyncIterable<Buffer>, shownAs: string) => AsyncGenerator<E[]>,
): Promise<E[]> {
  const report = await openReport(file, shownAs, format);
  const events: E[] = [];
  try {
    for await (const chunk of read(report.chunks, shownAs)) events.push(...chunk);
  } finally {
    report.close();
  }
  return events;
}
