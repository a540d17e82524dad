import { createEngine } from '../../engine/engine.js';
import { fileKeyStore } from '../../engine/secret-key-file.js';
import { readFileSync } from 'node:fs';
async function main() {
  const engine = await createEngine({ dataDir: '/tmp/inst', secretKeys: fileKeyStore('/tmp/inst/secret.key') });
  const token = readFileSync('/tmp/inst-key', 'utf8');
  const [op, q] = [process.argv[2], JSON.parse(process.argv[3])];
  await engine.invoke(op, { query: q }, { token, transport: 'http', client: 'x' });
  const d = engine.services.db.driver as any;
  const orig = d.createQueryRunner.bind(d);
  const qr = engine.services.db.createQueryRunner();
  const proto = Object.getPrototypeOf(qr);
  const oq = proto.query;
  proto.query = async function (sql: string, p: unknown[], ...rest: unknown[]) {
    const t = performance.now();
    const r = await oq.call(this, sql, p, ...rest);
    console.log(
      (performance.now() - t).toFixed(2),
      sql.slice(0, 400).replace(/\s+/g, ' '),
      JSON.stringify(p ?? []).slice(0, 100),
    );
    return r;
  };
  const t = performance.now();
  const r = await engine.invoke(op, { query: q }, { token, transport: 'http', client: 'x' });
  console.log('total', (performance.now() - t).toFixed(2), r.status, JSON.stringify(r.envelope).slice(0, 300));
  await engine.close();
}
void main();
