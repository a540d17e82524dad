import { z } from 'zod';

/** `projectId` → `projectID`: how set B spells an identifier field. */
type SetBName<K extends string> = K extends `${infer Base}Id` ? `${Base}ID` : never;
type SetBIds<T, K extends keyof T & string> = { [P in K as SetBName<P>]: T[P] };

const setBName = (key: string) => `${key.slice(0, -2)}ID`;

/**
 * Set B spells its identifier fields with a capital D (`projectID`, `organizationID`, `themeID`).
 * Its answers carry those names beside set A's, so a client of either set reads its own names:
 * answers may carry more fields, never fewer or renamed ones.
 */
export function withSetBIds<T extends object, K extends keyof T & `${string}Id`>(
  row: T,
  ...keys: K[]
): T & SetBIds<T, K> {
  const out: Record<string, unknown> = { ...(row as Record<string, unknown>) };
  for (const key of keys) out[setBName(key)] = row[key];
  return out as T & SetBIds<T, K>;
}

/** The result schema that goes with `withSetBIds`: the same fields, and each named one again under set B's name. */
export function withSetBIdsSchema<Shape extends z.ZodRawShape, K extends keyof Shape & `${string}Id`>(
  schema: z.ZodObject<Shape>,
  ...keys: K[]
) {
  const added = Object.fromEntries(keys.map((k) => [setBName(k), schema.shape[k]])) as {
    [P in K as SetBName<P>]: Shape[P];
  };
  return z.object({ ...schema.shape, ...added });
}
