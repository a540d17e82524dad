import type { PasswordWork } from '../../engine/core/passwords.js';

/**
 * The suite's servers hash passwords at scrypt N=2^12 instead of OWASP's 2^17 (4 MiB and about 5 ms
 * a hash instead of 128 MiB and 0.2 s): the suite signs in several hundred times, and at the real
 * cost the sign-in throttling file alone took 100 s. What a hash is, how it verifies and how an
 * unknown address costs the same as a known one are unchanged; tests/engine/engine-core.test.ts
 * holds the installation's own cost.
 */
export const TEST_PASSWORD_WORK: PasswordWork = { N: 2 ** 12 };
