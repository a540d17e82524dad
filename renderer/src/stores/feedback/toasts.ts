import { UNSTABLE_ToastQueue as ToastQueue } from 'react-aria-components';

export interface ToastContent {
  tone: 'success' | 'failure';
  text: string;
  /** When it was said: a success just said is what moved the person on (Create opening the new task). */
  at: number;
}

/** One queue for the whole app: a screen says what happened, the region shows it. */
export const toastQueue = new ToastQueue<ToastContent>({ maxVisibleToasts: 4 });

/** Failures shown are closed: they no longer hold once the person has moved on (another screen) or it has worked since. */
export function failuresCleared() {
  for (const t of toastQueue.visibleToasts) if (t.content.tone === 'failure') toastQueue.close(t.key);
}

/** How long a success may be the cause of the screen change that follows it. */
const CAUSE_MS = 1500;

/**
 * Another screen: what was said about the last one is closed (its "Saved." would cover the new
 * screen's controls), except a success said just now, which is what brought the person here.
 */
export function screenLeft() {
  failuresCleared();
  const now = Date.now();
  for (const t of toastQueue.visibleToasts)
    if (t.content.tone === 'success' && now - t.content.at > CAUSE_MS) toastQueue.close(t.key);
}

// Success fades on its own and clears the failures before it (the fix worked); a failure stays until read, closed or outdated.
// The same success said again replaces the one still showing: saving twice is one "Saved", not a stack over the form.
export function toastSucceeded(text: string) {
  failuresCleared();
  for (const t of toastQueue.visibleToasts)
    if (t.content.tone === 'success' && t.content.text === text) toastQueue.close(t.key);
  return toastQueue.add({ tone: 'success', text, at: Date.now() }, { timeout: 5000 });
}
export const toastFailed = (text: string) => toastQueue.add({ tone: 'failure', text, at: Date.now() });

/** A result of an operation told as a toast: its success text, or its error made plain. */
export function toastOutcome(answer: { ok: boolean; error: string | null }, success: string): boolean {
  if (answer.ok) toastSucceeded(success);
  else toastFailed(answer.error ?? 'That did not work.');
  return answer.ok;
}
