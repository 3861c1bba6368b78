/** A loopback HTTP server answering fixed routes (a package registry, a release server, an RPC node), recording each request. */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Served {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/** Serves `routes` by exact (decoded) path and 404 for the rest; a route gets the server's own URL as `base`. */
export async function serve(routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse, base: string) => void>): Promise<Served> {
  const requests: string[] = [];
  let base = '';
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const route = routes[decodeURIComponent(req.url ?? '')];
    if (route) route(req, res, base);
    else {
      res.writeHead(404);
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: base, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
