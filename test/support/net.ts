// A free TCP port on 127.0.0.1, for servers that must know their address before they start
// (OAuth issuers, MCP test instances, benchmarks). Shared by tests, scripts/ and bench/.
import { createServer, type AddressInfo } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
