import ts from 'typescript';
import { readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
const files = execSync("git ls-files 'engine/**/*.ts'", { cwd: '/work/main' }).toString().trim().split('\n')
  .filter((f) => !f.includes('migrations/') && !f.includes('/analytics/') && !f.includes('generated'));
const SQL = /\b(SELECT|WHERE|JOIN|FROM|EXISTS|ORDER BY|GROUP BY|UPDATE|DELETE|INSERT|COUNT\(|LOWER\(|COALESCE|CASE WHEN| IN \(| AND | OR | IS NULL| = :)/;
for (const f of files) {
  const src = ts.createSourceFile(f, readFileSync('/work/main/' + f, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (n: ts.Node) => {
    let text: string | undefined;
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) text = n.text;
    else if (ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) text = n.text;
    if (text && (SQL.test(text) || /^\w+\.\w+$/.test(text) || /\b[a-z]{1,3}\.[a-z]+[A-Z]/.test(text))) {
      // strip quoted parts
      const bare = text.replace(/'(?:[^']|'')*'/g, "''").replace(/"[^"]*"/g, '""').replace(/:\.\.\.\w+|:\w+/g, ':p');
      const hits = bare.match(/(?<![\w.$"])([a-z][a-z0-9]*\.)?[a-z]+[A-Z]\w*/g);
      if (hits) {
        const { line } = src.getLineAndCharacterOfPosition(n.getStart());
        console.log(`${f}:${line + 1}: ${[...new Set(hits)].join(' ')}    | ${text.replace(/\s+/g, ' ').slice(0, 140)}`);
      }
    }
    n.forEachChild(visit);
  };
  visit(src);
}
