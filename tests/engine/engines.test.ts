// The Node version the package declares is one every runtime dependency accepts: a dependency
// that needs a newer Node must be pinned (package.json overrides) or the declaration raised.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

const root = join(__dirname, '..', '..');

describe('declared Node engine', () => {
  it('is accepted by every package the product ships (production dependencies, all depths)', () => {
    const declared = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node as string;
    const lowest = semver.minVersion(declared)!.version;
    const tree = JSON.parse(
      execFileSync('npm', ['ls', '--omit=dev', '--all', '--json', '--long'], {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      }),
    );
    const refused: string[] = [];
    const walk = (deps: Record<string, { version?: string; path?: string; dependencies?: object }> | undefined) => {
      for (const [name, dep] of Object.entries(deps ?? {})) {
        if (dep.path) {
          const pkg = JSON.parse(readFileSync(join(dep.path, 'package.json'), 'utf8')) as {
            engines?: { node?: string };
          };
          const range = pkg.engines?.node;
          if (range && semver.validRange(range) && !semver.satisfies(lowest, range))
            refused.push(`${name}@${dep.version} needs Node ${range}`);
        }
        walk(dep.dependencies as never);
      }
    };
    walk(tree.dependencies);
    expect(refused, `the package declares Node ${declared}`).toEqual([]);
  });
});
