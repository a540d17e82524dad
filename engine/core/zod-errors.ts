import type { z } from 'zod';
import type { FieldError } from './errors.js';

/** Turns zod issues into `{field: "body.name", message}` with messages a person can act on. */
export function issuesToFieldErrors(part: string, error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => {
    const field = [part, ...issue.path.map(String)].join('.');
    return { field, message: messageFor(issue) };
  });
}

function messageFor(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      if (issue.input === null) return 'must not be null';
      return `must be ${article(issue.expected)}`;
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1) return 'must not be empty';
      return issue.message;
    case 'invalid_format':
      return issue.format === 'datetime' ? 'must be an ISO 8601 date-time' : issue.message;
    default:
      return issue.message;
  }
}

function article(type: string): string {
  if (type === 'int') return 'a whole number';
  if (type === 'array') return 'an array';
  if (type === 'object') return 'an object';
  return `a ${type}`;
}
