import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { FieldError as AriaFieldError, Input, Label, Text, TextArea, TextField } from 'react-aria-components';
import type { FieldError } from '../bridge';
import { placeErrors } from './field-errors';

export interface Option {
  id: string;
  name: string;
}

export interface FieldDef {
  name: string;
  label: string;
  kind: 'text' | 'email' | 'textarea' | 'password' | 'checkbox' | 'number' | 'datetime' | 'select' | 'multi' | 'url';
  required?: boolean;
  hint?: string;
  /** Choices read from the engine (a list operation). */
  options?: () => Promise<Option[]>;
  /** Choices known in advance: the values of an enumeration of the interface. */
  choices?: readonly string[] | readonly Option[];
}

export type FormValues = Record<string, unknown>;
export type SubmitOutcome = { error: string | null; errorDetails: FieldError[] } | null;

interface Props {
  fields: FieldDef[];
  initial: FormValues;
  submitLabel: string;
  /** Answers the field errors of the envelope (and a general error), or null on success. */
  onSubmit: (values: FormValues) => Promise<SubmitOutcome>;
  /** Shows a Cancel button (forms in dialogs). */
  onCancel?: () => void;
  /** Extra content under the fields (a preview, a note). */
  children?: ReactNode;
  /** An inline form (add a connection, a variable) empties itself after a save for the next one. */
  clearOnSuccess?: boolean;
}

/** An operation's answer as a form's outcome: null when it succeeded, its errors when not. */
export const submitOutcome = (a: { ok: boolean; error: string | null; errorDetails: FieldError[] }): SubmitOutcome => (a.ok ? null : { error: a.error, errorDetails: a.errorDetails });

const asOptions = (choices: FieldDef['choices']): Option[] => (choices ?? []).map((c) => (typeof c === 'string' ? { id: c, name: c } : c));

/**
 * A form whose every error of a submit shows at once, beside its field in words a person reads,
 * with focus moved to the first; what no field shows is summed up above the fields.
 */
export function Form({ fields, initial, submitLabel, onSubmit, onCancel, children, clearOnSuccess }: Props) {
  const [values, setValues] = useState<FormValues>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [summary, setSummary] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [options, setOptions] = useState<Record<string, Option[]>>({});
  const formRef = useRef<HTMLFormElement>(null);
  // Several forms can share a page (the project workspace): ids must not collide.
  const formId = useId();

  useEffect(() => {
    for (const f of fields) if (f.options) void f.options().then((o) => setOptions((prev) => ({ ...prev, [f.name]: o })));
  }, [fields]);

  // After a refused submit, the first field in error (or the summary) takes the focus.
  useEffect(() => {
    if (!Object.keys(errors).length && !summary.length) return;
    const first = formRef.current?.querySelector<HTMLElement>('.field.invalid input, .field.invalid select, .field.invalid textarea, .field.invalid [role="group"] input, .form-summary');
    first?.focus();
  }, [errors, summary]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // The engine checks every field at once and names each problem: one round, never several.
    setBusy(true);
    const result = await onSubmit(values);
    setBusy(false);
    if (!result) {
      if (clearOnSuccess) setValues(initial);
      setErrors({});
      setSummary([]);
      return;
    }
    const placed = placeErrors(result.errorDetails, Object.fromEntries(fields.map((f) => [f.name, f.label])));
    setErrors(placed.byField);
    setSummary(placed.unplaced.length || Object.keys(placed.byField).length ? placed.unplaced : [result.error ?? 'That did not work.']);
  };

  const set = (name: string, value: unknown) => setValues((v) => ({ ...v, [name]: value }));
  return (
    <form ref={formRef} className="form" onSubmit={submit} noValidate>
      {summary.length > 0 && (
        <div className="form-summary error-banner" role="alert" tabIndex={-1}>
          {summary.length === 1 ? summary[0] : <ul>{summary.map((s) => <li key={s}>{s}</li>)}</ul>}
        </div>
      )}
      {fields.map((f) => {
        const id = `${formId}-${f.name}`;
        const err = errors[f.name];
        const v = values[f.name];
        const described = err ? `${id}-error` : f.hint ? `${id}-hint` : undefined;
        const cls = `field ${err ? 'invalid' : ''} ${f.kind === 'checkbox' ? 'check' : ''}`;
        const label = (
          <>
            {f.label}
            {f.required && <span className="req" aria-hidden="true"> *</span>}
          </>
        );
        if (f.kind === 'text' || f.kind === 'email' || f.kind === 'password' || f.kind === 'textarea' || f.kind === 'number' || f.kind === 'url') {
          return (
            <TextField
              key={f.name}
              className={cls}
              value={v === undefined || v === null ? '' : String(v)}
              onChange={(x) => set(f.name, f.kind === 'number' ? (x === '' ? undefined : Number(x)) : x)}
              isRequired={f.required}
              isInvalid={!!err}
              validationBehavior="aria"
              type={f.kind === 'textarea' || f.kind === 'number' ? 'text' : f.kind}
            >
              <Label>{label}</Label>
              {f.kind === 'textarea' ? <TextArea /> : <Input inputMode={f.kind === 'number' ? 'numeric' : undefined} autoComplete={f.kind === 'password' ? 'new-password' : 'off'} />}
              {f.hint && !err && <Text slot="description" className="hint">{f.hint}</Text>}
              <AriaFieldError className="field-error">{err}</AriaFieldError>
            </TextField>
          );
        }
        let input;
        if (f.kind === 'checkbox') input = <input id={id} type="checkbox" checked={!!v} aria-describedby={described} onChange={(e) => set(f.name, e.target.checked)} />;
        else if (f.kind === 'select') {
          const choices = f.choices ? asOptions(f.choices) : (options[f.name] ?? []);
          input = (
            <select id={id} value={String(v ?? '')} aria-invalid={!!err} aria-required={f.required} aria-describedby={described} onChange={(e) => set(f.name, e.target.value || null)}>
              <option value="">{f.required ? 'Choose…' : '—'}</option>
              {choices.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
            </select>
          );
        } else if (f.kind === 'multi') {
          const chosen = new Set((v as string[] | undefined) ?? []);
          input = (
            <div className="multi" id={id} role="group" aria-label={f.label} aria-describedby={described}>
              {(f.choices ? asOptions(f.choices) : (options[f.name] ?? [])).map((o) => (
                <label key={o.id} className="chip">
                  <input type="checkbox" checked={chosen.has(o.id)} onChange={(e) => set(f.name, e.target.checked ? [...chosen, o.id] : [...chosen].filter((x) => x !== o.id))} />
                  {o.name}
                </label>
              ))}
            </div>
          );
        } else input = <input id={id} type="datetime-local" value={String(v ?? '')} aria-invalid={!!err} aria-describedby={described} onChange={(e) => set(f.name, e.target.value)} />;
        return (
          <div key={f.name} className={cls}>
            <label htmlFor={id}>{label}</label>
            {input}
            {f.hint && !err && <small className="hint" id={`${id}-hint`}>{f.hint}</small>}
            {err && <small className="field-error" id={`${id}-error`}>{err}</small>}
          </div>
        );
      })}
      {children}
      <div className="form-actions">
        {onCancel && <button type="button" onClick={onCancel}>Cancel</button>}
        <button type="submit" className="primary" disabled={busy}>{busy ? 'Saving…' : submitLabel}</button>
      </div>
    </form>
  );
}
