import { EngineError } from '../../core/errors.js';
import { problemOf } from '../data-connections/drivers/index.js';

/** A reload's reading that failed in its thread, already in words there (by `reloadProblem`). */
export class SourcesUnread extends Error {}

/** Why a reload failed, in words: the database's problem, or the import's (a file's words made a query's). */
export function reloadProblem(e: unknown): string {
  if (e instanceof SourcesUnread) return e.message;
  if (e instanceof EngineError) return e.message.replace(/^File: has/, 'The query returned');
  return problemOf(e).message;
}
