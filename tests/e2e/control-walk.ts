/// <reference lib="dom" />
// Tries every enabled control of a screen as a person would, one at a time from a fresh load: click
// it; fill the dialog it opens with what it requires and submit it, or answer its question yes; then
// wait until the page has no call in flight. Every call of the renderer goes through one door
// (`/api/app/invoke/<operation>`), so what each control caused is read off the wire by operation.
import type { Page, Request } from 'playwright-core';
import { OPERATIONS } from '../../engine/catalogue.js';

const METHOD = new Map<string, string>(OPERATIONS.map((op) => [op.id, op.http.method]));
const INVOKE = /\/api\/app\/invoke\/([^/?]+)/;

export interface Answered {
  op: string;
  status: number;
  message: string;
}
export interface Watch {
  pending: Set<Request>;
  answers: Answered[];
}

/** Counts the page's calls in flight (the event stream aside: it never ends) and records each answer. */
export function requestWatch(page: Page): Watch {
  const w: Watch = { pending: new Set(), answers: [] };
  page.on('request', (r) => {
    if (INVOKE.test(r.url())) w.pending.add(r);
  });
  page.on('requestfailed', (r) => w.pending.delete(r));
  page.on('requestfinished', async (r) => {
    const res = await r.response();
    const op = decodeURIComponent(INVOKE.exec(r.url())?.[1] ?? '');
    if (res && op) {
      let message = '';
      if (res.status() >= 400)
        message = String(((await res.json().catch(() => ({}))) as { error?: string }).error ?? '');
      w.answers.push({ op, status: res.status(), message });
    }
    w.pending.delete(r);
  });
  return w;
}

const frame = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));

/** Waits until no call is in flight across a few rendered frames (effects fire their calls after a render). */
export async function settle(page: Page, w: Watch): Promise<void> {
  let quiet = 0;
  for (let i = 0; i < 2000 && quiet < 4; i++) {
    await frame(page).catch(() => undefined);
    quiet = w.pending.size === 0 ? quiet + 1 : 0;
  }
}

export interface Tried {
  place: string;
  control: string;
  /** Calls refused as not allowed, in words: each is a control that should not have been offered. */
  refused: string[];
  /** Calls that failed on the server's side (5xx). */
  failed: string[];
  /** Operations that changed something and went through. */
  written: string[];
  ms?: number;
}

/**
 * The enabled controls of the screen a person can act with, by their accessible names, one per
 * action: in a list's rows ("Rename Regional letter", "Rename Regional workbook") the first row's
 * stands for the others. A column's sort button is reading, not acting: left out.
 */
async function controlsOf(page: Page): Promise<string[]> {
  return page.locator('main').evaluate((main) => {
    const names = new Set<string>();
    const actions = new Set<string>();
    const candidates = main.querySelectorAll<HTMLElement>(
      'button, [role=button], [role=switch], input[type=checkbox], input[type=radio]',
    );
    for (const el of Array.from(candidates)) {
      const disabled =
        (el as HTMLButtonElement).disabled ||
        el.getAttribute('aria-disabled') === 'true' ||
        !!el.closest('fieldset:disabled');
      const shown = el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
      // A field of a form is edited, not acted with: its form's submit button is the control.
      const field = (el as HTMLInputElement).type === 'checkbox' || (el as HTMLInputElement).type === 'radio';
      if (disabled || !shown || (field && el.closest('form')) || el.closest('thead')) continue;
      const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ');
      // In a row, the action is its name up to the row's own (capitalized or quoted) name: "Edit recipient".
      const words = name.split(' ');
      const own = words.findIndex((w, i) => i > 0 && /^[A-Z“"]/.test(w));
      const action = el.closest('tbody tr, li') && own > 0 ? words.slice(0, own).join(' ') : name;
      if (name && !actions.has(action)) {
        actions.add(action);
        names.add(name);
      }
    }
    return [...names];
  });
}

/** One control per action: "Permissions of Regional letter" and "… of Regional workbook" do the same to two rows. */
const actionOf = (name: string) => name.replace(/ (of|for|from|to) .*$/, '').replace(/ [“"].*$/, '');

/** Fills what a form or dialog requires: text where it is empty, the first choice of an empty list, a name typed back. */
function fillRequired(root: Element) {
  const setValue = (el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string) => {
    const proto = Object.getPrototypeOf(el) as object;
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
    el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  };
  const required = root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
    'input[required], textarea[required], input[aria-required=true], textarea[aria-required=true]',
  );
  for (const el of Array.from(required)) {
    if (el.value || el.disabled) continue;
    const kind = el.type;
    if (kind === 'email') setValue(el, 'persona.walk@example.com');
    else if (kind === 'number') setValue(el, '1');
    else if (kind === 'url') setValue(el, 'https://example.com/');
    else if (kind === 'text' || kind === 'password' || el instanceof HTMLTextAreaElement)
      setValue(el, kind === 'password' ? 'persona-walk-password-1' : `Persona walk ${Date.now() % 100000}`);
  }
  // A question that asks for a name typed back ("Type Sales to confirm") gets it.
  const typed = root.querySelector<HTMLInputElement>('#confirm-typed');
  const asked = typed?.labels?.[0]?.querySelector('strong')?.textContent;
  if (typed && asked) setValue(typed, asked);
  for (const el of Array.from(root.querySelectorAll<HTMLSelectElement>('select'))) {
    if (el.value || el.disabled) continue;
    const first = Array.from(el.options).find((o) => o.value && !o.disabled);
    if (first) setValue(el, first.value);
  }
}

/** Fills what an open dialog requires and submits it; answers a question yes. */
async function answerDialog(page: Page): Promise<void> {
  const open = page.locator('[role=dialog], .dialog[role=alertdialog]').last();
  if (!(await open.count())) return;
  await open.evaluate(fillRequired);
  const submit = open.locator('button[type=submit]:enabled:visible');
  if (await submit.count()) return submit.last().click({ timeout: 2000 });
  // A question: its answer that acts is the last of its answers that does not keep things as they
  // are. Buttons inside a dialog's table (a member's Remove) are the dialog's own controls, not its answer.
  const answers = open
    .locator('.form-actions button:enabled:visible')
    .filter({ hasNotText: /^(Cancel|Keep it|Close|Stay|No)$/ });
  if (await answers.count()) await answers.last().click({ timeout: 2000 });
}

/**
 * Tries each control of the place: loaded afresh, clicked, its dialog answered. Deleting comes last
 * (it takes away what the other controls act on).
 */
export async function clickEveryControl(page: Page, w: Watch, url: string, place: string): Promise<Tried[]> {
  const seen = new Set<string>();
  const names = (await controlsOf(page))
    .filter((n) => !seen.has(actionOf(n)) && !!seen.add(actionOf(n)))
    .sort((a, b) => Number(/^(Delete|Remove)/.test(a)) - Number(/^(Delete|Remove)/.test(b)));
  const tried: Tried[] = [];
  for (const control of names) {
    await page.goto(url);
    await page.reload();
    await settle(page, w);
    const target = page
      .locator('main')
      .getByRole('button', { name: control, exact: true })
      .or(page.locator('main').getByRole('checkbox', { name: control, exact: true }))
      .or(page.locator('main').getByRole('switch', { name: control, exact: true }))
      .first();
    if (!(await target.isVisible().catch(() => false)) || !(await target.isEnabled().catch(() => false))) continue;
    // A form on the page itself (a new report's name) is filled as its dialog would be.
    const form = target.locator('xpath=ancestor::form[1]');
    if ((await form.count()) && !(await target.evaluate((el) => !!el.closest('[role=dialog]'))))
      await form.evaluate(fillRequired);
    const from = w.answers.length;
    const started = Date.now();
    await target.click({ timeout: 2000 }).catch(() => undefined);
    await settle(page, w);
    await answerDialog(page).catch(() => undefined);
    await settle(page, w);
    // A second question (a confirmation after a form) is answered too.
    await answerDialog(page).catch(() => undefined);
    await settle(page, w);
    tried.push({ ...outcome(place, control, w.answers.slice(from)), ms: Date.now() - started });
  }
  return tried;
}

/** What one control (or opening a place) caused, from the answers to its calls. */
export function outcome(place: string, control: string, answers: Answered[]): Tried {
  return {
    place,
    control,
    refused: answers.filter((a) => a.status === 403).map((a) => `${a.op} → 403 ${a.message}`),
    failed: answers.filter((a) => a.status >= 500).map((a) => `${a.op} → ${a.status} ${a.message}`),
    written: answers.filter((a) => a.status < 300 && METHOD.get(a.op) !== 'GET').map((a) => a.op),
  };
}
