// The server's entry (`node dist/engine/serve.cjs`): runs the server's bundle, built beside this
// file, with its compiled code kept between starts.
import './serve-flags.js';
import { join } from 'node:path';
import { runBundle } from './code-cache.js';

runBundle(join(__dirname, 'serve-bundle.cjs'));
