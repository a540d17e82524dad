import { EntitySchema } from 'typeorm';

/**
 * Sign-in outcomes kept for the throttle (failures for an hour, each account's latest success at an
 * address for a month): a restart, or a server started later beside others, counts the guesses
 * made before it as the throttle in memory did.
 */
export interface SignInOutcomeRow {
  id: string;
  account: string;
  address: string;
  outcome: 'fail' | 'succeed';
  at: Date;
}

export const SignInOutcome = new EntitySchema<SignInOutcomeRow>({
  name: 'SignInOutcome',
  tableName: 'sign_in_outcomes',
  columns: {
    id: { type: 'varchar', length: 36, primary: true },
    account: { type: 'varchar', length: 320 },
    address: { type: 'varchar', length: 64 },
    outcome: { type: 'varchar', length: 8 },
    at: { type: 'datetime' },
  },
  indices: [{ name: 'IDX_sign_in_outcomes_at', columns: ['at'] }],
});
