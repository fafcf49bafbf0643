import type { OutstandingWork } from '../delivery/outstanding-work.js';
import type { FileDeliverySummary, TestResult } from '../types.js';
import type { AttachmentStage, AttachmentStageInit, HeldResult } from './stage.js';

/**
 * A run's attached files until their stage is loaded: the attachments' code is imported only
 * when a run first has a file to send and its service takes files (docs/design/attachments.md; bench figure 1 holds a run without files to the cost it had before them).
 * Results that come meanwhile wait here, and go on together, as they came, when the service
 * turns out to take none; the run's end waits for this as for the uploads.
 */
export class AttachedFiles implements OutstandingWork {
  private stage: AttachmentStage | undefined;
  private waiting: HeldResult[] = [];
  private readonly loading: Promise<void>;
  private spooled = false;
  /** The service takes no files: results go on as they come. */
  private passing = false;

  constructor(private readonly init: AttachmentStageInit) {
    init.session.holdEndFor(this);
    this.loading = init.session.createdRun().then(async (run) => {
      if (this.spooled) return;
      if (run && !run.acceptsAttachments) return this.passOn();
      try {
        const { AttachmentStage } = await import('./index.js');
        if (this.spooled) return;
        this.stage = new AttachmentStage(init);
        this.stage.add(this.waiting.splice(0));
      } catch (error) {
        init.session.say(
          `attached files are not uploaded: their code did not load (${(error as Error).message})`,
        );
        this.passOn();
      }
    });
  }

  add(entries: readonly HeldResult[]): void {
    if (this.stage) this.stage.add(entries);
    else if (this.passing) this.init.deliver(entries.map((held) => held.result));
    else this.waiting.push(...entries);
  }

  async settled(): Promise<void> {
    await this.loading;
  }

  /** Before the stage loaded (a process going away within its first milliseconds): the results go, without their files. */
  spoolNow(): void {
    this.spooled = true;
    const results: TestResult[] = this.waiting.splice(0).map((held) => held.result);
    if (results.length === 0) return;
    this.init.session.say(
      `the process went away before the run's files could be hashed: ${results.length} results were spooled without their files`,
    );
    this.init.session.spoolResults(results);
  }

  delivered(): boolean {
    return this.waiting.length === 0;
  }

  files(): FileDeliverySummary {
    return { sent: 0, bytes: 0, spooled: 0, skipped: 0 };
  }

  /** The service takes no files: what waited goes on, together and in order, and so does whatever comes. */
  private passOn(): void {
    this.passing = true;
    this.init.deliver(this.waiting.splice(0).map((held) => held.result));
  }
}
