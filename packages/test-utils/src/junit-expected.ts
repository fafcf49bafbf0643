// What `testrun upload` must store for the hand-written reports in fixtures/junit, written
// down once from the mapping table in the README ("Upload JUnit XML from any framework").
import { type ExpectedResult, resultsIn } from './parity-expected.js';

/** fixtures/junit/pytest.xml: pytest's default xunit2 report, no `file` attributes. */
export const PYTEST_RESULTS: readonly ExpectedResult[] = [
  ...resultsIn('tests.test_cart.TestTotals', [
    ['test_sums_line_items', 'passed'],
    ['test_applies_discount[10-90]', 'passed'],
    ['test_applies_discount[25-75]', 'passed'],
    ['test_rounds_half_even', 'failed'],
  ]),
  ...resultsIn('tests.test_cart.TestCheckout', [
    // The same test name as in TestTotals: the classname keeps the two apart.
    ['test_sums_line_items', 'passed'],
    ['test_charges_card', 'skipped'],
    // xfail is written as <skipped>.
    ['test_gift_cards', 'skipped'],
  ]),
  ...resultsIn('tests.test_db', [
    // A fixture that failed in setup is an <error>.
    ['test_reads_a_row', 'failed'],
    // Failed in the test and again in teardown: pytest writes it twice, it is stored once.
    ['test_cleans_up', 'failed'],
  ]),
  ...resultsIn('tests.test_slug', [
    ['test_slugify[Crème brûlée-creme-brulee]', 'passed'],
    ['test_slugify[日本語-ri-ben-yu]', 'passed'],
  ]),
  // A module that failed to collect.
  ...resultsIn('tests.test_search', [['(file failed to run)', 'failed']]),
];

/** fixtures/junit/surefire-reports/TEST-*.xml: one report per class, as Maven Surefire writes them. */
export const SUREFIRE_RESULTS: readonly ExpectedResult[] = [
  ...resultsIn('com.example.shop.CartServiceTest', [
    ['addsTax', 'passed'],
    ['appliesDiscount(int, int)[1]', 'passed'],
    ['appliesDiscount(int, int)[2]', 'passed'],
    ['roundsHalfEven', 'failed'],
    ['chargesCard', 'failed'],
    ['supportsGiftCards', 'skipped'],
    // Failed once, passed on a rerun: <flakyFailure> is not a failure.
    ['retriesPayment', 'passed'],
  ]),
  ...resultsIn('com.example.shop.CartServiceTest$Checkout', [
    ['placesAnOrder', 'passed'],
    ['emailsAReceipt', 'passed'],
  ]),
  // Its @BeforeAll threw: Surefire writes one testcase named like the class.
  ...resultsIn('com.example.shop.InventoryRepositoryTest', [['(file failed to run)', 'failed']]),
];
