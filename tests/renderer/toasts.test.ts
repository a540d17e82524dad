// What the toast region is told: a success said again replaces the one still showing (saving twice
// is one "Saved", not a stack over the form), other successes stay, and a success clears failures.
import { beforeEach, describe, expect, it } from 'vitest';
import { toastFailed, toastQueue, toastSucceeded } from '../../renderer/src/stores/feedback/toasts.js';

const shown = () => toastQueue.visibleToasts.map((t) => `${t.content.tone}: ${t.content.text}`);

beforeEach(() => {
  for (const t of toastQueue.visibleToasts) toastQueue.close(t.key);
});

describe('the toasts', () => {
  it('show one "Saved the task." however often the task is saved, beside the other successes', () => {
    toastSucceeded('Created task.');
    toastSucceeded('Saved the task.');
    toastSucceeded('Saved the task.');
    toastSucceeded('Saved the task.');
    expect(shown().sort()).toEqual(['success: Created task.', 'success: Saved the task.']);
  });

  it('clear a failure when a success follows, and keep a failure said alone', () => {
    toastFailed('The name is taken.');
    expect(shown()).toEqual(['failure: The name is taken.']);
    toastSucceeded('Saved the task.');
    expect(shown()).toEqual(['success: Saved the task.']);
  });
});
