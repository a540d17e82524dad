// `npm run lint` checks the import cycles: between files and between feature folders. None is
// allowed: the step fails on either, so the knot untied in issue 45 cannot grow back. A feature that
// needs what another needs from it moves the shared piece down (to model, access or core) or takes
// it as a parameter. Type-only imports count too: a type shared both ways belongs in a file of its
// own. The tree checked is the working directory's (a test points it at a tree of its own).
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOTS = ['engine', 'renderer/src', 'main', 'preload'];
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g;

const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
  }
};
for (const root of ROOTS) if (existsSync(root)) walk(root);

/** The file an import names: `.js` written for `.ts`, a folder's index, or the extension left out. */
function target(from, spec) {
  const base = resolve(dirname(from), spec).replace(/\.(m?js|jsx)$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate)) return relative(process.cwd(), candidate);
  }
  return null;
}

const edges = new Map(files.map((f) => [f, new Set()]));
for (const f of files) {
  const text = readFileSync(f, 'utf8');
  for (const m of text.matchAll(IMPORT)) {
    const to = target(f, m[1]);
    if (to && edges.has(to) && to !== f) edges.get(f).add(to);
  }
}

/** Strongly connected components of more than one node (Tarjan). */
function cycles(graph) {
  let index = 0;
  const stack = [];
  const on = new Set();
  const idx = new Map();
  const low = new Map();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

const fileCycles = cycles(edges);
// Feature folders: engine/features/<area>.
const area = (f) => /^engine\/features\/([^/]+)\//.exec(f)?.[1] ?? null;
const folders = new Map();
for (const [f, tos] of edges) {
  const a = area(f);
  if (!a) continue;
  if (!folders.has(a)) folders.set(a, new Set());
  for (const t of tos) {
    const b = area(t);
    if (b && b !== a) folders.get(a).add(b);
  }
}
const folderCycles = cycles(folders);
const mutual = [...folders].flatMap(([a, tos]) =>
  [...tos].filter((b) => a < b && folders.get(b)?.has(a)).map((b) => `${a} ↔ ${b}`),
);

console.log(`Import cycles between files: ${fileCycles.length}`);
for (const c of fileCycles) console.log(`  ${c.join(' → ')}`);
console.log(
  `Feature folders in a cycle: ${folderCycles.reduce((n, c) => n + c.length, 0)} of ${folders.size} (${mutual.length} mutual pairs)`,
);
for (const c of folderCycles) console.log(`  ${c.join(', ')}`);
process.exit(fileCycles.length || folderCycles.length ? 1 : 0);
