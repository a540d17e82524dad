// The mail bench's receiving SMTP server, in a process of its own so the sender's measurement is
// not shared with the receiver's parsing (on 2 cores they competed for the same event loop).
// Talks to its parent over IPC: it answers its port, counts what arrived, hands back samples.
import { SMTPServer } from 'smtp-server';

const raw = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  size: 10 * 1024 * 1024,
  onData(stream, _session, cb) {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      raw.push(Buffer.concat(chunks));
      cb();
    });
  },
});
smtp.on('error', () => {});
smtp.listen(0, '127.0.0.1', () => process.send({ port: smtp.server.address().port }));
process.on('message', (m) => {
  if (m.cmd === 'count') process.send({ count: raw.length });
  else if (m.cmd === 'reset') {
    raw.length = 0;
    process.send({ count: 0 });
  } else if (m.cmd === 'sample') process.send({ sample: m.indices.map((i) => raw[i]?.toString('base64') ?? null) });
  else if (m.cmd === 'close') smtp.close(() => process.exit(0));
});
