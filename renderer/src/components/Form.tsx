import { useEffect, useId, useState, type FormEvent } from 'react';
import type { FieldError } from '../bridge';

export interface Option {
  id: string;
  name: string;
}

export interface FieldDef {
  name: string;
  label: string;
  kind: 'text' | 'email' | 'textarea' | 'password' | 'checkbox' | 'number' | 'datetime' | 'select' | 'multi';
  required?: boolean;
  hint?: string;
  options?: () => Promise<Option[]>;
}

export type FormValues = Record<string, unknown>;

interface Props {
  fields: FieldDef[];
  initial: FormValues;
  submitLabel: string;
  /** Answers the field errors of the envelope (and a general error), or null on success. */
  onSubmit: (values: FormValues) => Promise<{ error: string | null; errorDetails: FieldError[] } | null>;
}

/** A form whose fields show the errors the engine names (`body.<field>`), beside the field. */
export function Form({ fields, initial, submitLabel, onSubmit }: Props) {
  const [values, setValues] = useState<FormValues>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [options, setOptions] = useState<Record<string, Option[]>>({});
  // Several forms can share a page (the project workspace): ids must not collide.
  const formId = useId();

  useEffect(() => {
    for (const f of fields) if (f.options) void f.options().then((o) => setOptions((prev) => ({ ...prev, [f.name]: o })));
  }, [fields]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const result = await onSubmit(values);
    setBusy(false);
    if (!result) {
      // Saved: an inline form (add a connection, a variable) is ready for the next one.
      setValues(initial);
      setErrors({});
      setGeneral(null);
      return;
    }
    const byField: Record<string, string> = {};
    for (const d of result.errorDetails) byField[d.field.replace(/^body\./, '').split('.')[0]] = d.message;
    setErrors(byField);
    const unplaced = result.errorDetails.filter((d) => !fields.some((f) => f.name === d.field.replace(/^body\./, '').split('.')[0]));
    setGeneral(Object.keys(byField).length && !unplaced.length ? null : result.error);
  };

  const set = (name: string, value: unknown) => setValues((v) => ({ ...v, [name]: value }));
  return (
    <form className="form" onSubmit={submit} noValidate>
      {general && <div className="error-banner" role="alert">{general}</div>}
      {fields.map((f) => {
        const id = `${formId}-${f.name}`;
        const err = errors[f.name];
        const v = values[f.name];
        let input;
        if (f.kind === 'checkbox') input = <input id={id} type="checkbox" checked={!!v} onChange={(e) => set(f.name, e.target.checked)} />;
        else if (f.kind === 'textarea') input = <textarea id={id} value={String(v ?? '')} onChange={(e) => set(f.name, e.target.value)} />;
        else if (f.kind === 'select')
          input = (
            <select id={id} value={String(v ?? '')} onChange={(e) => set(f.name, e.target.value || null)}>
              <option value="">—</option>
              {(options[f.name] ?? []).map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
            </select>
          );
        else if (f.kind === 'multi') {
          const chosen = new Set((v as string[] | undefined) ?? []);
          input = (
            <div className="multi" id={id} role="group" aria-label={f.label}>
              {(options[f.name] ?? []).map((o) => (
                <label key={o.id} className="chip">
                  <input type="checkbox" checked={chosen.has(o.id)} onChange={(e) => set(f.name, e.target.checked ? [...chosen, o.id] : [...chosen].filter((x) => x !== o.id))} />
                  {o.name}
                </label>
              ))}
            </div>
          );
        } else
          input = (
            <input
              id={id}
              type={f.kind === 'datetime' ? 'datetime-local' : f.kind}
              value={String(v ?? '')}
              autoComplete={f.kind === 'password' ? 'new-password' : 'off'}
              onChange={(e) => set(f.name, f.kind === 'number' ? (e.target.value === '' ? undefined : Number(e.target.value)) : e.target.value)}
            />
          );
        return (
          <div key={f.name} className={`field ${err ? 'invalid' : ''} ${f.kind === 'checkbox' ? 'check' : ''}`}>
            <label htmlFor={id}>
              {f.label}
              {f.required && <span className="req" aria-hidden="true"> *</span>}
            </label>
            {input}
            {f.hint && !err && <small className="hint">{f.hint}</small>}
            {err && <small className="field-error" role="alert">{err}</small>}
          </div>
        );
      })}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>{busy ? 'Saving…' : submitLabel}</button>
      </div>
    </form>
  );
}
