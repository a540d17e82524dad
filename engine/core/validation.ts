import { z } from 'zod';

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const isGuid = (s: string) => GUID.test(s);

/** Field builders that spell the interface's notation: `req`, `nullable`, `non-empty`, `uuid`, `date-time`, `int32`. */
export const v = {
  /** string non-empty: surrounding blanks are trimmed, so blank text counts as empty */
  text: () => z.string().trim().min(1, { message: 'must not be empty' }),
  str: () => z.string(),
  nstr: () => z.string().nullable().optional(),
  uuid: () => z.string().regex(GUID, { message: 'must be a UUID' }),
  nuuid: () => z.string().regex(GUID, { message: 'must be a UUID' }).nullable().optional(),
  bool: () => z.boolean(),
  obool: () => z.boolean().optional(),
  int: () => z.number().int({ message: 'must be a whole number' }).min(-2147483648).max(2147483647),
  dateTime: () => z.iso.datetime({ offset: true, local: true, message: 'must be an ISO 8601 date-time' }),
  idName: () => z.object({ id: v.uuid(), name: z.string().nullable().optional() }),
  uuidList: () => z.array(v.uuid()),
};

export const idParam = z.object({ id: v.uuid() });
