// The requests of a run of three results, as both floors make them (http-floor.cjs over
// node:http, net-floor.cjs by hand over node:net), through their own `send(method, path, body)`
// that resolves to { body, headers }: create the run, send one batch, and complete the run if
// create-run's answer announces `complete-run` (as `testrun serve` does). Prints the line the
// bench checks.
module.exports = async function sendRunRequests(send) {
  const created = await send('POST', '/api/v1/runs', { project: 'floor', framework: 'node', tags: [] });
  const runId = created.body.id ?? created.body.runId ?? created.body.data?.id;
  const results = ['adds', 'subtracts', 'multiplies'].map((testCase) => ({
    testSuite: 'test/math.test.js',
    testCase,
    status: 'passed',
    duration: 1,
  }));
  await send('POST', `/api/v1/runs/${encodeURIComponent(runId)}/results`, { results });
  const announced = `${created.headers['testrun-extensions'] ?? ''} ${JSON.stringify(created.body.extensions ?? [])}`;
  if (announced.includes('complete-run')) {
    await send('PATCH', `/api/v1/runs/${encodeURIComponent(runId)}`, { status: 'completed' });
  }
  console.log(`floor: 3 results → run ${runId}`);
};
