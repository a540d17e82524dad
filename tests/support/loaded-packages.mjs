// Preloaded into the built server (`node --import`): records every package the server loads, and when it
// says it serves, writes them (with their load time) to the file named by BS_LOADED_PACKAGES.
import Module from 'node:module';
import { writeFileSync } from 'node:fs';

const load = Module._load;
const loaded = new Map();
Module._load = function (request, ...rest) {
  const started = performance.now();
  try {
    return load.call(this, request, ...rest);
  } finally {
    const bare = !request.startsWith('.') && !request.startsWith('/') && !request.startsWith('node:');
    if (bare && !Module.isBuiltin(request)) {
      const name = request
        .split('/')
        .slice(0, request.startsWith('@') ? 2 : 1)
        .join('/');
      if (!loaded.has(name)) loaded.set(name, Math.round(performance.now() - started));
    }
  }
};
const write = process.stdout.write;
process.stdout.write = function (chunk, ...rest) {
  if (String(chunk).includes('is serving'))
    writeFileSync(process.env.BS_LOADED_PACKAGES, JSON.stringify(Object.fromEntries(loaded)));
  return write.call(this, chunk, ...rest);
};
