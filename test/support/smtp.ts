// A minimal SMTP server on loopback for tests (no TLS, no AUTH): records each message it accepts and
// refuses RCPT TO for the addresses in `refuse` (550) while they are listed there.
import net from 'node:net';

export interface SmtpMessage {
  from: string;
  to: string[];
  data: string;
}
export interface SmtpServer {
  url: string;
  messages: SmtpMessage[];
  refuse: Set<string>;
  close(): Promise<void>;
}

export async function smtpServer(): Promise<SmtpServer> {
  const messages: SmtpMessage[] = [];
  const refuse = new Set<string>();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let current: SmtpMessage = { from: '', to: [], data: '' };
    const say = (line: string) => socket.write(line + '\r\n');
    say('220 test.local ESMTP');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let i = buffer.indexOf('\r\n'); i >= 0; i = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            messages.push(current);
            current = { from: '', to: [], data: '' };
            say('250 queued');
          } else current.data += (line.startsWith('..') ? line.slice(1) : line) + '\n';
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') say('250 test.local');
        else if (verb === 'MAIL') {
          current = { from: /<([^>]*)>/.exec(line)?.[1] ?? '', to: [], data: '' };
          say('250 ok');
        } else if (verb === 'RCPT') {
          const to = /<([^>]*)>/.exec(line)?.[1] ?? '';
          if (refuse.has(to)) say('550 no such mailbox');
          else {
            current.to.push(to);
            say('250 ok');
          }
        } else if (verb === 'DATA') {
          inData = true;
          say('354 go ahead');
        } else if (verb === 'RSET') {
          current = { from: '', to: [], data: '' };
          say('250 ok');
        } else if (verb === 'QUIT') {
          say('221 bye');
          socket.end();
        } else say('250 ok');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    refuse,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
