/**
 * A mail server's reply, or the connection's error, in words a designer acts on. The raw reply is
 * kept beside it: these words say what to check, the reply says exactly what the server said.
 */
const EXPLANATIONS: [RegExp, string][] = [
  [
    /ECONNREFUSED|connection refused/i,
    'The mail server refused the connection: check its host name and port, and that it is running.',
  ],
  [/ENOTFOUND|EAI_AGAIN|getaddrinfo|EDNS/i, "The mail server's host name could not be found: check its spelling."],
  [
    /ETIMEDOUT|timed? ?out|ESOCKET.*time/i,
    'The mail server did not answer in time: it may be down, or a firewall may block the port.',
  ],
  [
    /ECONNRESET|socket hang up|closed the connection/i,
    'The mail server closed the connection: it may be busy or limit how many mails it takes.',
  ],
  [
    /EAUTH|\b535\b|\b534\b|authentication|Invalid login/i,
    'The mail server refused the sign-in: check the user name and password.',
  ],
  [
    /SSL|TLS|certificate|wrong version number/i,
    'The secure connection failed: check the SSL setting matches the port (465 uses SSL; 587 and 25 start plain).',
  ],
  [
    /\b55[01]\b|\b553\b|no such user|unknown user|mailbox unavailable|user unknown/i,
    "The recipient's server does not know this address: check it is spelled right and still in use.",
  ],
  [
    /\b552\b|too large|size limit/i,
    'The message is larger than the server takes: zip the files, or send fewer per mail.',
  ],
  [
    /\b554\b|spam|blocked|blacklist|policy/i,
    'The server refused the message by its policy (spam or sender checks): ask its administrator.',
  ],
  [
    /\b42[01]\b|\b45[0-2]\b|try again|temporar|greylist/i,
    'The server asked to try later (busy, limiting or greylisting): it is tried again with growing waits.',
  ],
  [/\b5\d\d\b/, 'The server refused the message for good.'],
];

export function explainMailError(raw: string | null): string | null {
  if (!raw) return null;
  return EXPLANATIONS.find(([pattern]) => pattern.test(raw))?.[1] ?? 'The mail could not be delivered.';
}
