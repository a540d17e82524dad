// Result schemas are built on first read (start-up does not build them), and a lazy schema is the
// schema itself to every caller: parsing, extending, nesting, JSON Schema and instanceof.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazySchema, lazySchemasBuilt } from '../../engine/core/lazy-schema.js';
import { OPERATIONS } from '../../engine/catalogue.js';
import { UserResult } from '../../engine/features/common.results.js';
// What the server's start-up bundle loads (engine/serve.ts), read before any test here runs.
import '../../engine/engine.js';
import '../../engine/http/server.js';
import '../../engine/ops/dispatch.js';

const builtAsModulesLoaded = lazySchemasBuilt();

const shape = () => ({ id: z.string(), size: z.number().int().nullable() });

describe('a lazy schema', () => {
  it("is not built as the server's modules load: `.optional()` or `.extend()` on one at top level would", () => {
    expect(builtAsModulesLoaded).toBe(0);
  });

  it('is built the first time it is read, and once', () => {
    let builds = 0;
    const File = lazySchema(() => {
      builds++;
      return z.object(shape());
    });
    expect(builds).toBe(0);
    expect(File.parse({ id: 'a', size: 3 })).toEqual({ id: 'a', size: 3 });
    File.safeParse({ id: 'b', size: null });
    expect(builds).toBe(1);
  });

  it('parses, refuses, extends and nests as the schema it stands for', () => {
    const File = lazySchema(() => z.object(shape()));
    const Named = lazySchema(() => File.extend({ name: z.string() }));
    const Files = z.array(Named);
    expect(Files.parse([{ id: 'a', size: 1, name: 'x' }])).toEqual([{ id: 'a', size: 1, name: 'x' }]);
    const refused = Files.safeParse([{ id: 'a', size: 1.5, name: 'x' }]);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0].path).toEqual([0, 'size']);
    expect(File instanceof z.ZodObject).toBe(true);
    expect(Object.keys(Named.shape)).toEqual(['id', 'size', 'name']);
  });

  it('gives the JSON Schema the schema itself gives', () => {
    const direct = z.object({ ...shape(), tags: z.array(z.string()) });
    const lazy = lazySchema(() => z.object({ ...shape(), tags: z.array(z.string()) }));
    expect(z.toJSONSchema(lazy, { io: 'output' })).toEqual(z.toJSONSchema(direct, { io: 'output' }));
    expect(z.toJSONSchema(z.object({ file: lazy }), { io: 'output' })).toEqual(
      z.toJSONSchema(z.object({ file: direct }), { io: 'output' }),
    );
  });

  it("checks every operation's declared result, read through the catalogue", () => {
    const declared = OPERATIONS.filter((op) => op.result);
    expect(declared.length).toBeGreaterThan(150);
    for (const op of declared) expect(op.result, op.id).toBeInstanceOf(z.ZodType);
    // A user's answer without its roles is refused by its result schema: the schema checks, not just stands.
    const user = UserResult.parse({
      id: 'u',
      type: 'user',
      firstName: 'A',
      lastName: 'B',
      fullName: 'A B',
      email: null,
      userName: null,
      domainAccount: null,
      isActive: true,
      sendNotification: false,
      isoLanguage: null,
      timeZone: null,
      isTenantOwner: false,
      isTenantAdmin: false,
      hasPassword: false,
      password: null,
      directoryId: null,
      roles: [],
      organizations: [],
      groups: [],
      createdDate: null,
      modifiedDate: null,
    });
    const { roles: _, ...withoutRoles } = user;
    expect(UserResult.safeParse(withoutRoles).success).toBe(false);
  });

  it('stands for every schema the results files declare, so none is built as the server starts', () => {
    const features = join(__dirname, '..', '..', 'engine', 'features');
    const files = readdirSync(features, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.results.ts'));
    expect(files.length).toBeGreaterThan(20);
    const eager = files.flatMap((f) =>
      [
        ...readFileSync(join(features, f), 'utf8').matchAll(
          /^(?:export )?const (\w+)\s*(?::[^=]+)?=(?!\s*lazySchema\()/gm,
        ),
      ].map((m) => `${f}: ${m[1]}`),
    );
    expect(eager).toEqual([]);
  });
});
