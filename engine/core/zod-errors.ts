import type { z } from 'zod';
import type { FieldError } from './errors.js';

/** Turns zod issues into `{field: "body.name", message}` with messages a person can act on. */
export function issuesToFieldErrors(part: string, error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => {
    const field = [part, ...issue.path.map(String)].join('.');
    return { field, message: messageFor(issue) };
  });
}

const ZOD_DEFAULT = /^(Too (small|big)|Invalid|Unrecognized)/;

// zod's defaults speak to programmers ("Too big: expected number to be <=65535"); these speak to
// the person filling in the form, beside the field they name.
function messageFor(issue: z.core.$ZodIssue): string {
  // The input is on the issue only when parsed with reportInput (the dispatcher does; it is never echoed).
  if ('input' in issue && issue.input === undefined && issue.code !== 'unrecognized_keys') return 'is required';
  // A schema's own message ("choose at least one organization") already speaks to the person.
  if (issue.code !== 'custom' && !ZOD_DEFAULT.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      if ('input' in issue && issue.input === null) return 'must not be null';
      return `must be ${article(issue.expected)}`;
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return Number(issue.minimum) <= 1 ? 'must have at least one item' : `must have at least ${issue.minimum} items`;
      return issue.inclusive === false ? `must be more than ${issue.minimum}` : `must be ${issue.minimum} or more`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have at most ${issue.maximum} items`;
      return issue.inclusive === false ? `must be less than ${issue.maximum}` : `must be ${issue.maximum} or less`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      if (issue.format === 'datetime') return 'must be an ISO 8601 date-time';
      if (issue.format === 'email') return 'must be an e-mail address';
      if (issue.format === 'url') return 'must be a web address such as https://example.com';
      if (issue.format === 'uuid' || issue.format === 'guid') return 'must be the id of an existing item';
      return issue.message;
    case 'unrecognized_keys':
      return `has fields it does not know: ${issue.keys.join(', ')}`;
    default:
      return issue.message;
  }
}

function article(type: string): string {
  if (type === 'int') return 'a whole number';
  if (type === 'array') return 'a list';
  if (type === 'object') return 'an object';
  return `a ${type}`;
}
