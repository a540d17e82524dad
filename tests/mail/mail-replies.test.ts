// What a designer reads when mail fails: the server's reply (or the connection's error) in words
// that say what to check, for the replies and errors seen in practice.
import { describe, expect, it } from 'vitest';
import { explainMailError } from '../../engine/features/mail/mail-replies.js';

describe('mail failures in words', () => {
  it.each([
    ['connect ECONNREFUSED 127.0.0.1:2599', /refused the connection: check its host name and port/],
    ['getaddrinfo ENOTFOUND smtp.exmaple.com', /host name could not be found/],
    ['Connection timeout', /did not answer in time/],
    ['535 5.7.8 Authentication credentials invalid', /refused the sign-in: check the user name and password/],
    ['550 5.1.1 <nobody@example.com>: Recipient address rejected: User unknown', /does not know this address/],
    ['552 5.3.4 Message size exceeds fixed limit', /larger than the server takes/],
    ['451 4.7.1 Greylisted, please try again later', /asked to try later/],
    ['554 5.7.1 Message rejected as spam', /refused the message by its policy/],
    ['routines:ssl3_get_record:wrong version number', /secure connection failed: check the SSL setting/],
  ])('%s', (raw, words) => expect(explainMailError(raw)).toMatch(words));

  it('has no words for no reply, and general ones for a reply it does not know', () => {
    expect(explainMailError(null)).toBeNull();
    expect(explainMailError('something odd happened')).toBe('The mail could not be delivered.');
  });
});
