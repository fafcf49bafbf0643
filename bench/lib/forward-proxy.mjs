// A minimal forward proxy (CONNECT tunnels) on 127.0.0.1, in the bench's own process, so that
// the proxy path's figure counts only the reporter's process.
import http from 'node:http';
import net from 'node:net';

export async function startForwardProxy() {
  const server = http.createServer((_request, response) => response.writeHead(405).end());
  server.on('connect', (request, client, head) => {
    const at = request.url.lastIndexOf(':');
    const upstream = net.connect(Number(request.url.slice(at + 1)), request.url.slice(0, at), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
