import { lazySchema } from './lazy-schema.js';
import { z } from 'zod';
import addressparser from 'nodemailer/lib/addressparser/index.js';

/** Whether a From header's text names exactly one mailbox (no list, no group) with a valid address. */
function isOneMailbox(text: string): boolean {
  const parsed = addressparser(text);
  if (parsed.length !== 1) return false;
  const [one] = parsed;
  return !('group' in one && one.group) && 'address' in one && EMAIL_PATTERN.test(one.address);
}

export const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const isGuid = (s: string) => GUID.test(s);

/**
 * Length caps for text fields. Every string of every schema has one, so no field stores a
 * megabyte of text: names and short labels, descriptions and messages, long content (expressions,
 * e-mail bodies).
 */
export const TEXT_MAX = { name: 300, text: 4000, long: 100_000 } as const;

/**
 * A whole number with thousands separators ("100,000"). Not `toLocaleString`: its first call loads
 * the locale's number formats, and every schema's cap is written at start — 17 ms of each start.
 */
export const withThousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const tooLong = (max: number) => ({ message: `must be at most ${withThousands(max)} characters` });

/**
 * One e-mail rule everywhere (sign-in, users, setup, first start): no blanks or header-breaking
 * characters; the domain is one or more host-name labels, so addresses the product itself creates
 * (`owner@localhost`) are accepted. Stored lower-case so sign-in ignores case.
 */
export const EMAIL_PATTERN =
  /^[^\s@<>(),;:"\\[\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
export const email = () =>
  z
    .string()
    .trim()
    .max(254, tooLong(254))
    .regex(EMAIL_PATTERN, { message: 'must be an e-mail address' })
    .transform((s) => s.toLowerCase());
export const nemail = () =>
  z
    .union([email(), z.literal('').transform(() => null)])
    .nullable()
    .optional();

/**
 * One schema per builder and arguments. A schema never changes once built (each of its methods
 * answers a new one), so the fields of every operation share them: a start builds each field kind
 * once instead of at each of its 700 uses (building schemas was a sixth of the server's start).
 */
function once<A extends (string | number)[], S>(build: (...args: A) => S): (...args: A) => S {
  const built = new Map<string, S>();
  return (...args: A) => {
    const key = args.join('\u0000');
    let schema = built.get(key);
    if (!schema) built.set(key, (schema = build(...args)));
    return schema;
  };
}

/** Field builders that spell the interface's notation: `req`, `nullable`, `non-empty`, `uuid`, `date-time`, `int32`. */
const fields = {
  /** string non-empty: surrounding blanks are trimmed, so blank text counts as empty */
  text: (max: number = TEXT_MAX.name) =>
    z.string().trim().min(1, { message: 'must not be empty' }).max(max, tooLong(max)),
  str: (max: number = TEXT_MAX.text) => z.string().max(max, tooLong(max)),
  nstr: (max: number = TEXT_MAX.text) => z.string().max(max, tooLong(max)).nullable().optional(),
  uuid: () => z.string().regex(GUID, { message: 'must be a UUID' }),
  nuuid: () => z.string().regex(GUID, { message: 'must be a UUID' }).nullable().optional(),
  bool: () => z.boolean(),
  obool: () => z.boolean().optional(),
  int: () => z.number().int({ message: 'must be a whole number' }).min(-2147483648).max(2147483647),
  dateTime: () => z.iso.datetime({ offset: true, local: true, message: 'must be an ISO 8601 date-time' }).max(40),
  /** A date-time that may be left out or null (a schedule without an end). */
  ndateTime: () =>
    z.iso
      .datetime({ offset: true, local: true, message: 'must be an ISO 8601 date-time' })
      .max(40)
      .nullable()
      .optional(),
  idName: () =>
    z.object({ id: v.uuid(), name: z.string().max(TEXT_MAX.name, tooLong(TEXT_MAX.name)).nullable().optional() }),
  uuidList: () => z.array(v.uuid()).max(10_000),
  /** One of the values the interface knows for a type-like field, spelled as listed. */
  oneOf: <const T extends readonly [string, ...string[]]>(values: T) =>
    z.enum(values, { message: `must be one of: ${values.join(', ')}` }),
  /** string, nullable, and when given an http or https web address (blank counts as not given). */
  nurl: (max: number = TEXT_MAX.text) =>
    z
      .string()
      .trim()
      .max(max, tooLong(max))
      .transform((s) => (s === '' ? null : s))
      .refine((s) => s === null || isWebAddress(s), { message: 'must be a web address such as https://example.com' })
      .nullable()
      .optional(),
  /** string non-empty that goes into a mail header: one line, since a line break would start a header of its own. */
  header: (max: number = TEXT_MAX.name) =>
    v.text(max).refine(oneLine, { message: 'must be on one line (no line breaks)' }),
  nheader: (max: number = TEXT_MAX.name) =>
    z
      .string()
      .max(max, tooLong(max))
      .refine(oneLine, { message: 'must be on one line (no line breaks)' })
      .nullable()
      .optional(),
  /**
   * One sender for a From header: `reports@example.com` or `"Reports" <reports@example.com>`. A list
   * (`"x" <a@b.c>, evil@example.com`) or a group would put other senders in the mail's name.
   */
  mailbox: (max: number = 320) =>
    v.header(max).refine(isOneMailbox, { message: 'must be one sender: an address, or a name and <address>' }),
  nmailbox: (max: number = 320) =>
    z
      .string()
      .max(max, tooLong(max))
      .refine((s) => s.trim() === '' || (oneLine(s) && isOneMailbox(s)), {
        message: 'must be one sender: an address, or a name and <address>',
      })
      .nullable()
      .optional(),
  /** string non-empty, an http or https web address. */
  url: (max: number = TEXT_MAX.text) =>
    v.text(max).refine(isWebAddress, { message: 'must be a web address such as https://example.com' }),
};
type Fields = typeof fields;
/** The field builders, each building a given kind of field once (`once`). */
export const v = Object.fromEntries(
  Object.entries(fields).map(([name, build]) =>
    // oneOf's values are a list: keyed by the values themselves.
    [name, name === 'oneOf' ? build : once(build as (...args: (string | number)[]) => unknown)],
  ),
) as Fields;

function oneLine(s: string): boolean {
  return !/[\r\n]/.test(s);
}

export function isWebAddress(s: string): boolean {
  return /^https?:\/\/[^\s]+$/i.test(s) && URL.canParse(s);
}

export const idParam = lazySchema(() => z.object({ id: v.uuid() }));
/** Path parameters that are all UUIDs, such as {taskId} and {taskReportId}. */
export const uuidParams = <const K extends string>(...keys: K[]) =>
  z.object(Object.fromEntries(keys.map((k) => [k, v.uuid()])) as Record<K, ReturnType<typeof v.uuid>>);

/** The entries of a list a person or a variable wrote: "a@x.com; b@x.com", commas and new lines too. */
export function listEntries(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(/[;,\n]/)
    .map((x) => x.trim())
    .filter(Boolean);
}
