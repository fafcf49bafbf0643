// Figure 7c's second floor: the same requests as http-floor.cjs, written and read by hand over
// `node:net` (HTTP/1.1, one connection, answers with a content-length only). It measures what a
// reporter would save by not using Node's HTTP client, a lever not pulled
// (docs/performance.md#what-a-run-loads-and-what-is-left); it is a measuring device, not a
// client: no chunked answers, no TLS, no redirects.
const net = process.getBuiltinModule('node:net');
const sendRunRequests = require('./floor-requests.cjs');

const base = new URL(process.env.TESTRUN_BASE_URL);
const authorization = `Bearer ${process.env.TESTRUN_API_KEY}`;
const socket = net.connect(Number(base.port), base.hostname);
let received = Buffer.alloc(0);
let waiting = null;

socket.on('data', (chunk) => {
  received = Buffer.concat([received, chunk]);
  answer();
});
socket.on('error', (error) => waiting?.reject(error));

function answer() {
  const headEnd = received.indexOf('\r\n\r\n');
  if (!waiting || headEnd < 0) return;
  const [statusLine, ...lines] = received.subarray(0, headEnd).toString('latin1').split('\r\n');
  const headers = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const end = headEnd + 4 + Number(headers['content-length'] ?? 0);
  if (received.length < end) return;
  const text = received.subarray(headEnd + 4, end).toString('utf8');
  received = received.subarray(end);
  const { resolve, reject, method, path } = waiting;
  waiting = null;
  const status = Number(statusLine.split(' ')[1]);
  if (status >= 300) reject(new Error(`${method} ${path}: ${status}`));
  else resolve({ body: text ? JSON.parse(text) : {}, headers });
}

function send(method, path, body) {
  const data = Buffer.from(JSON.stringify(body));
  const head =
    `${method} ${path} HTTP/1.1\r\nhost: ${base.host}\r\nauthorization: ${authorization}\r\n` +
    `content-type: application/json\r\ncontent-length: ${data.length}\r\n\r\n`;
  return new Promise((resolve, reject) => {
    waiting = { resolve, reject, method, path };
    // One write: a head and body written apart wait on Nagle and delayed ACKs (+40 ms each).
    socket.write(Buffer.concat([Buffer.from(head, 'latin1'), data]));
  });
}

sendRunRequests(send)
  .catch((error) => {
    console.error(error.message);
    process.exitCode = 1;
  })
  .finally(() => socket.end());
