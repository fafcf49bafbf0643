// Figure 7c's floor: the requests a run of three results makes, sent by Node's own HTTP client
// and nothing else (no library, no options, no spool), from TESTRUN_BASE_URL with
// TESTRUN_API_KEY: create the run, send one batch, and complete the run if create-run's answer
// announces `complete-run` (as `testrun serve` does). What this costs over `node -e 0` is what
// any reporter that talks HTTP from the runner's process pays before its own code.
const http = process.getBuiltinModule('node:http');
const sendRunRequests = require('./floor-requests.cjs');

const base = process.env.TESTRUN_BASE_URL;
const headers = {
  authorization: `Bearer ${process.env.TESTRUN_API_KEY}`,
  'content-type': 'application/json',
};
const agent = new http.Agent({ keepAlive: true });

function send(method, path, body) {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const request = http.request(
      new URL(path, base),
      { method, agent, headers: { ...headers, 'content-length': Buffer.byteLength(data) } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () => {
          if (response.statusCode >= 300) reject(new Error(`${method} ${path}: ${response.statusCode}`));
          else resolve({ body: text ? JSON.parse(text) : {}, headers: response.headers });
        });
      },
    );
    request.on('error', reject);
    request.end(data);
  });
}

sendRunRequests(send)
  .catch((error) => {
    console.error(error.message);
    process.exitCode = 1;
  })
  .finally(() => agent.destroy());
