import type { AttachmentStage, AttachmentStageInit, HeldResult } from '../attachments/stage.js';
import type { FileDeliverySummary, TestResult } from '../types.js';
import type { OutstandingWork } from './run-session.js';

/**
 * A run's attached files until their stage is loaded: the attachments' code is imported only
 * when a run first has a file to send (docs/design.md, "Attachments"; bench figure 1 holds a
 * run without files to the cost it had before them). Results that come meanwhile wait here,
 * and the run's end waits for the import as for the uploads.
 */
export class AttachedFiles implements OutstandingWork {
  private stage: AttachmentStage | undefined;
  private waiting: HeldResult[] = [];
  private readonly loading: Promise<void>;
  private spooled = false;

  constructor(private readonly init: AttachmentStageInit) {
    init.session.holdEndFor(this);
    this.loading = import('../attachments/index.js').then(
      ({ AttachmentStage }) => {
        if (this.spooled) return;
        this.stage = new AttachmentStage(init);
        this.stage.add(this.waiting.splice(0));
      },
      (error: unknown) => {
        init.session.say(
          `attached files are not uploaded: their code did not load (${(error as Error).message})`,
        );
        init.deliver(this.waiting.splice(0).map((held) => held.result));
      },
    );
  }

  add(entries: readonly HeldResult[]): void {
    if (this.stage) this.stage.add(entries);
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
      `the process went away while the attachments' code loaded: ${results.length} results were spooled without their files`,
    );
    this.init.session.spoolResults(results);
  }

  delivered(): boolean {
    return this.waiting.length === 0;
  }

  files(): FileDeliverySummary {
    return { sent: 0, bytes: 0, spooled: 0, skipped: 0 };
  }
}
