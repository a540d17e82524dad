import { Initial1763683200000 } from './1763683200000-initial.js';

/** Migrations in the order they run; append, never reorder or edit a released one. */
export const MIGRATIONS = [Initial1763683200000];
