// `services: ['@testrun/webdriverio/service']`: WebdriverIO takes a service module's `launcher`
// export as its launcher service, in the `wdio` process, and its default export as a service
// in every worker.
import { guardHook } from '@testrun/core';
import { addCucumberFormatter } from './cucumber-formatter.js';
import { TestrunLauncher } from './launcher.js';

export { TestrunLauncher };
export const launcher = TestrunLauncher;

/**
 * The worker's side: under WebdriverIO's Cucumber framework, adds the formatter that hands the
 * reporter Cucumber's own messages (cucumber-formatter.ts), before the framework reads
 * `cucumberOpts`. Nothing under Mocha or Jasmine. Never throws into WebdriverIO.
 */
export default class TestrunWorkerService {
  beforeSession(config: unknown): void {
    guardHook(() => addCucumberFormatter(config));
  }
}
