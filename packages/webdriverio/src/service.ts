// `services: ['@testrun/webdriverio/service']`: WebdriverIO takes a service module's `launcher`
// export as its launcher service, in the `wdio` process. The module has no default export, so
// WebdriverIO starts nothing of it in the workers.
import { TestrunLauncher } from './launcher.js';

export { TestrunLauncher };
export const launcher = TestrunLauncher;
