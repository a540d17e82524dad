// The import bench's transfer floor: a bare Node HTTP server, in a process of its own as the
// product's server is, writing each request's body to one file as it arrives and answering `{}`.
// What the upload costs before anything is imported: the same client, the same bytes, the same disk.
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:http';
import { pipeline } from 'node:stream/promises';

const [target] = process.argv.slice(2);
const server = createServer((req, res) => {
  pipeline(req, createWriteStream(target)).then(
    () => res.end('{}'),
    (e) => {
      res.statusCode = 500;
      res.end(JSON.stringify({ error: String(e) }));
    },
  );
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (m) => {
  if (m.cmd === 'close') server.close(() => process.exit(0));
});
