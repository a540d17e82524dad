// Bundles the Node side (engine server, Electron main and preload, benchmarks) with esbuild.
//
// The server and the desktop's main process bundle the packages every start loads (TypeORM, zod,
// Fastify and what they require): one file read and compiled instead of about a thousand small
// ones, a quarter of a second off each start. Every other package stays external: sqlite3 is
// native, TypeORM loads its driver by name at run time, and the libraries behind one feature
// (mail, FTP, LDAP, archives, Office files, charts, imports) are loaded when that feature is first
// used, from node_modules as installed. The workers keep every package external: they start once.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
/** Loaded by every start: bundled into the server and the desktop main process. */
const STARTUP = new Set([
  'typeorm',
  'zod',
  'fastify',
  '@fastify/cors',
  '@fastify/static',
  'croner',
  'reflect-metadata',
  // The columnar store's JavaScript (a hundred small files, 27 ms to require): bundled, so its first
  // use after an import does not hold the main thread; its native binding stays installed.
  '@duckdb/node-api',
]);
/** TypeORM's other drivers, named in its code and never installed here. */
const OTHER_DRIVERS = [
  'pg',
  'pg-native',
  'pg-query-stream',
  'mysql',
  'mysql2',
  'oracledb',
  'mssql',
  'mongodb',
  'redis',
  'ioredis',
  'sql.js',
  'better-sqlite3',
  '@sap/hana-client',
  '@sap/hana-client/extension/Stream',
  'hdb-pool',
  'typeorm-aurora-data-api-driver',
  'react-native-sqlite-storage',
  '@google-cloud/spanner',
  '@capacitor-community/sqlite',
  'expo-sqlite',
];
/** Fastify's JSON-schema compilers: no route gives Fastify a schema (engine/http/server.ts). */
const FASTIFY_SCHEMAS_UNUSED = ['@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler'];
const external = [
  ...Object.keys(pkg.dependencies).filter((name) => !STARTUP.has(name)),
  ...FASTIFY_SCHEMAS_UNUSED,
  ...Object.keys(pkg.optionalDependencies ?? {}),
  ...OTHER_DRIVERS,
  // Native: loaded from node_modules as installed (unpacked beside the asar when packaged).
  '@duckdb/node-bindings',
];

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'error',
};
const allExternal = { ...common, packages: 'external' };
// Start-up bundles: whitespace, syntax and identifiers minified, about a third less to read and
// compile. Names are not kept (esbuild's `keepNames`): it wraps each of 4,500 functions and classes
// in a call that redefines its `name`, which gives each a shape of its own (2.4 MB allocated at each
// start). Without them, and with the wrapper below, a restart read 1.48 → 1.41× its floor and a
// first start 1.60 → 1.51× (sixteen alternated rounds each, docs/DECISIONS.md). Nothing the product
// reads is a class's own name: each migration names itself (TypeORM stores that name; held by
// tests/engine/schema-snapshot.test.ts) and each entity is an EntitySchema named outright; what a
// library prints of a class (a TypeORM error's `name`) reads minified in a log.
// A library behind a feature is loaded with `import()` in the source; here it becomes a `require`
// made when it is first needed, which V8's code cache (`engine/code-cache.ts`) can hold, where an
// `import()` in cached code cannot run.
/**
 * Packages TypeORM requires when it loads, for options this product never sets: the `debug` logger,
 * entity globs, reading `ormconfig`/`.env` files, and the formatted console logger's SQL layout. Left
 * out of the start-up bundles (a fifth of
 * the bundle's own load time: `debug` alone opens the terminal module); a call into one fails
 * naming it, so an option that needed one could not go unnoticed.
 */
const TYPEORM_UNUSED = ['debug', 'glob', 'dotenv', 'app-root-path', '@sqltools/formatter'];
/**
 * TypeORM's drivers (and their entity managers) for databases Broadsheet never opens: its factory
 * requires all sixteen when it loads. Broadsheet opens SQLite and PostgreSQL alone; the others were
 * a sixth of the start-up bundle, read, compiled and run at every start. Two small files they hold
 * are kept, as TypeORM's own code outside the drivers uses them.
 */
const TYPEORM_DRIVERS_UNUSED =
  /[\\/]node_modules[\\/]typeorm[\\/](driver[\\/](cockroachdb|mongodb|sqlserver|oracle|cordova|react-native|nativescript|sqljs|mysql|expo|aurora-mysql|aurora-postgres|sap|better-sqlite3|capacitor|spanner)[\\/]|entity-manager[\\/](Mongo|Sqljs)EntityManager\.js$|repository[\\/]MongoRepository\.js$)/;
const TYPEORM_DRIVER_FILES_KEPT = /[\\/](typings|MssqlParameter)\.js$/;
/** What a left-out module becomes: any use of it fails naming it and why it is not there. */
const leftOutModule = (message) =>
  `function leftOut() { throw new Error(${JSON.stringify(message)}); }
module.exports = new Proxy(Object.assign(leftOut, { debug: leftOut, sync: leftOut, config: leftOut }), {
  get: (target, key) => (key === '__esModule' ? undefined : key in target ? target[key] : leftOut),
  ownKeys: () => ['length', 'name', 'prototype'],
});`;
const leaveOutTypeormUnused = {
  name: 'leave-out-typeorm-unused',
  setup(b) {
    const filter = new RegExp(`^(${TYPEORM_UNUSED.join('|')})$`);
    const inTypeorm = /[\\/]node_modules[\\/]typeorm[\\/]/;
    b.onResolve({ filter }, (args) =>
      inTypeorm.test(args.importer) ? { path: args.path, namespace: 'left-out' } : undefined,
    );
    // @fastify/static lists its folder with glob only when its files are routes of their own
    // (\`wildcard: false\`); Broadsheet looks each file up when asked (engine/http/plugins/documents.ts).
    b.onResolve({ filter: /^glob$/ }, (args) =>
      /[\\/]node_modules[\\/]@fastify[\\/]static[\\/]/.test(args.importer)
        ? { path: args.path, namespace: 'left-out' }
        : undefined,
    );
    b.onResolve({ filter: /^\./ }, (args) => {
      if (!inTypeorm.test(args.importer)) return undefined;
      const path = join(dirname(args.importer), args.path);
      const file = path.endsWith('.js') ? path : `${path}.js`;
      if (!TYPEORM_DRIVERS_UNUSED.test(file) || TYPEORM_DRIVER_FILES_KEPT.test(file)) return undefined;
      return { path: file, namespace: 'left-out-driver' };
    });
    b.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({
      contents: leftOutModule(
        `${args.path} is left out of the bundle (scripts/build-node.mjs): TypeORM and @fastify/static need it only for options Broadsheet does not set`,
      ),
      loader: 'js',
    }));
    b.onLoad({ filter: /.*/, namespace: 'left-out-driver' }, (args) => ({
      contents: leftOutModule(
        `${args.path.split(/node_modules[\\/]/).pop()} is left out of the bundle (scripts/build-node.mjs): Broadsheet opens SQLite and PostgreSQL databases only`,
      ),
      loader: 'js',
    }));
  },
};
/**
 * zod's messages in English only. zod 4 names its 40-odd languages as one namespace (`z.locales`),
 * so every one was bundled — 261 KiB, a tenth of the start-up bundle, read and compiled at every
 * start for a choice Broadsheet never offers (its API answers in English). A language asked for
 * other than English is undefined, so `z.config(z.locales.fr())` would fail at once, not quietly.
 */
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(b) {
    const inZod = /[\\/]node_modules[\\/]zod[\\/]/;
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      inZod.test(args.importer)
        ? { path: join(dirname(args.importer), '..', 'locales', 'en.js'), namespace: 'zod-english-only' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};
const startupBundled = {
  ...common,
  external,
  minifyWhitespace: true,
  minifySyntax: true,
  minifyIdentifiers: true,
  supported: { 'dynamic-import': false },
  plugins: [leaveOutTypeormUnused, englishOnlyZod],
};
await Promise.all([
  build({ ...startupBundled, entryPoints: ['engine/serve.ts'], outfile: 'dist/engine/serve-bundle.cjs' }),
  build({ ...allExternal, entryPoints: ['engine/serve-entry.ts'], outfile: 'dist/engine/serve.cjs' }),
  build({ ...allExternal, entryPoints: ['engine/render/render-worker.ts'], outfile: 'dist/engine/render-worker.cjs' }),
  build({ ...allExternal, entryPoints: ['engine/render/chart-worker.ts'], outfile: 'dist/engine/chart-worker.cjs' }),
  build({
    ...allExternal,
    entryPoints: ['engine/analytics/embedded/import-worker.ts'],
    outfile: 'dist/engine/import-worker.cjs',
  }),
  build({
    ...allExternal,
    entryPoints: ['engine/features/app-data/source-reader.ts'],
    outfile: 'dist/engine/source-reader.cjs',
  }),
  build({
    ...startupBundled,
    entryPoints: ['main/main.ts'],
    outfile: 'dist/main/main.cjs',
    external: [...external, 'electron'],
  }),
  build({
    ...allExternal,
    entryPoints: ['preload/preload.ts'],
    outfile: 'dist/preload/preload.cjs',
    external: ['electron'],
  }),
  build({ ...allExternal, entryPoints: ['tests/bench/bench.ts'], outfile: 'dist/bench/bench.cjs' }),
  build({ ...allExternal, entryPoints: ['tests/bench/scale-node.ts'], outfile: 'dist/bench/scale-node.cjs' }),
  build({ ...allExternal, entryPoints: ['tests/bench/bench-server.ts'], outfile: 'dist/bench/bench-server.cjs' }),
]);

// The server's bundle in ASCII alone, so its start reads it as one-byte text without decoding UTF-8
// (engine/code-cache.ts; 17 ms of each start). esbuild escapes strings, but keeps a few characters
// inside regular expressions as they are; each UTF-16 unit written as \uXXXX means the same there.
//
// It is also written inside CommonJS's wrapper, on a line of its own: engine/code-cache.ts then
// compiles the file's text as it was read. Wrapped at start, the 2.5 MB text was a concatenation
// V8 copied whole before compiling it (5 ms and 2.5 MB of each start). The source map moves down
// the one line the wrapper's head takes.
const SERVER_BUNDLE = 'dist/engine/serve-bundle.cjs';
/** engine/code-cache.ts's `WRAPPED_HEAD`, which a test holds this to. */
const WRAPPED_HEAD = '(function (exports, require, module, __filename, __dirname) {\n';
const text = readFileSync(SERVER_BUNDLE, 'utf8');
const ascii = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
writeFileSync(SERVER_BUNDLE, `${WRAPPED_HEAD}${ascii}\n});`);
const map = JSON.parse(readFileSync(`${SERVER_BUNDLE}.map`, 'utf8'));
writeFileSync(`${SERVER_BUNDLE}.map`, JSON.stringify({ ...map, mappings: `;${map.mappings}` }));
