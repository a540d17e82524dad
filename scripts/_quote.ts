import ts from 'typescript';
import { readFileSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
const files = execSync("git ls-files 'engine/**/*.ts'", { cwd: '/work/main' }).toString().trim().split('\n')
  .filter((f) => !f.includes('migrations/') && !f.includes('/analytics/') && !f.includes('generated') && !f.endsWith('core/sql.ts') && !f.endsWith('schema-snapshot.ts'));
const SQL = /\b(SELECT|WHERE|JOIN|EXISTS|ORDER BY|GROUP BY|UPDATE|DELETE FROM|INSERT|COUNT\(|LOWER\(|COALESCE|CASE WHEN|IS NULL|IS NOT NULL|MAX\(|MIN\()|\bIN \(| = :|<> :|>= :|<= :|> :|< :| = TRUE| = FALSE/;
const SORT = /^\s*\(?[a-z][a-z0-9]{0,3}\.[a-z]+[A-Z]\w*\)?\s*$/;
const NOT_SQL = /^(body|query|params|app|v1|v2|path)\./;
const camel = /^[a-z][a-z0-9]*[A-Z]\w*$/;
let total = 0;
for (const f of files) {
  const path = '/work/main/' + f;
  const source = readFileSync(path, 'utf8');
  const src = ts.createSourceFile(f, source, ts.ScriptTarget.Latest, true);
  const edits: { at: number; text: string }[] = [];
  const visit = (n: ts.Node) => {
    const isLit = ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n);
    if (isLit) {
      const text = (n as ts.LiteralLikeNode).text;
      const isSql = !NOT_SQL.test(text.trim()) && (SQL.test(text) || SORT.test(text) || ((ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) && /^\.[a-z]+[A-Z]\w*\b/.test(text) && SQL.test(text + ' IN (')));
      if (isSql && !ts.isImportDeclaration(n.parent) && !ts.isPropertyAssignment(n.parent) || (isSql && ts.isPropertyAssignment(n.parent) && n.parent.initializer === n)) {
        const raw = n.getText(src);
        const start = n.getStart(src);
        const dq = raw.startsWith('"');
        const q = dq ? '\\"' : '"';
        // walk raw (skip first delimiter)
        let i = 1;
        while (i < raw.length) {
          const c = raw[i];
          if (c === "'" && !(raw[0] === "'")) { const j = raw.indexOf("'", i + 1); i = j < 0 ? raw.length : j + 1; continue; }
          if (raw[0] === "'" && c === '\\' && raw[i + 1] === "'") { const j = raw.indexOf("\\'", i + 2); i = j < 0 ? raw.length : j + 2; continue; }
          if (c === '"' && !dq) { const j = raw.indexOf('"', i + 1); i = j < 0 ? raw.length : j + 1; continue; }
          if (dq && c === '\\' && raw[i + 1] === '"') { const j = raw.indexOf('\\"', i + 2); i = j < 0 ? raw.length : j + 2; continue; }
          if (c === ':' ) { const m = /^:(\.\.\.)?\w*/.exec(raw.slice(i)); i += m![0].length; continue; }
          if (c === '$' && raw[i + 1] === '{') { const j = raw.indexOf('}', i); i = j < 0 ? raw.length : j + 1; continue; }
          if (/[A-Za-z_]/.test(c)) {
            const m = /^[A-Za-z_]\w*/.exec(raw.slice(i))!;
            const word = m[0];
            const before = raw[i - 1];
            if (camel.test(word) && before !== '$' && before !== '\\') {
              edits.push({ at: start + i, text: q }, { at: start + i + word.length, text: q });
            }
            i += word.length;
            continue;
          }
          i++;
        }
      }
    }
    n.forEachChild(visit);
  };
  visit(src);
  if (!edits.length) continue;
  edits.sort((a, b) => b.at - a.at);
  let out = source;
  for (const e of edits) out = out.slice(0, e.at) + e.text + out.slice(e.at);
  writeFileSync(path, out);
  total += edits.length / 2;
  console.log(f, edits.length / 2);
}
console.log('total', total);
