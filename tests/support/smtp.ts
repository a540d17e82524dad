import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  envelopeTo: string[];
  parsed: ParsedMail;
}

export interface TestSmtp {
  port: number;
  received: ReceivedMail[];
  /** Refuses the next `n` messages at the end of DATA: 451 (transient) unless another code is given. */
  refuseNext(n: number, code?: number): void;
  close(): Promise<void>;
}

/** A real SMTP server on a loopback port (smtp-server): every message it accepts is parsed back with mailparser. */
export async function startSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  let refuse = 0;
  let refuseCode = 451;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 50 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refuse > 0) {
          refuse--;
          const e = new Error(refuseCode >= 500 ? 'Mailbox unavailable' : 'Try again later') as Error & {
            responseCode: number;
          };
          e.responseCode = refuseCode;
          return callback(e);
        }
        void simpleParser(Buffer.concat(chunks)).then((parsed) => {
          received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), parsed });
          callback();
        }, callback);
      });
    },
  });
  // A client killed mid-send resets its connection: that is what crash tests do, not a failure.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    refuseNext: (n, code = 451) => {
      refuse = n;
      refuseCode = code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port nothing listens on (for "cannot be reached"). */
export async function closedPort(): Promise<number> {
  // Below the range the system hands out for listen(0) (32768 and up on Linux), where every test
  // server takes its port: a port free now stays free, so nobody else answers on it meanwhile.
  const { createServer } = await import('node:net');
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 10_000);
    const s = createServer();
    const free = await new Promise<boolean>((r) => {
      s.once('error', () => r(false));
      s.listen(port, '127.0.0.1', () => r(true));
    });
    if (free) {
      await new Promise<void>((r) => s.close(() => r()));
      return port;
    }
  }
}

/** Sets up the loopback SMTP server as the installation's mail server ("Reports" <reports@example.com>). */
export async function addLoopbackMailServer(
  s: { ok(method: string, path: string, body?: unknown): Promise<unknown> },
  smtp: Pick<TestSmtp, 'port'>,
): Promise<{ id: string }> {
  return (await s.ok('POST', '/api/v1/mail-servers', {
    name: 'Loopback',
    fromName: 'Reports',
    fromAddress: 'reports@example.com',
    hostName: '127.0.0.1',
    smtpPort: smtp.port,
    ssl: false,
  })) as { id: string };
}
