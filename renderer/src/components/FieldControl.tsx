import { useEffect, useState } from 'react';
import { FieldError as AriaFieldError, Input, Label, Text, TextArea, TextField } from 'react-aria-components';
import type { FieldDef, Option } from './field-def';
import { kindName } from './kind-names';

export const asOptions = (choices: FieldDef['choices']): Option[] =>
  (choices ?? []).map((c) => (typeof c === 'string' ? { id: c, name: kindName(c) } : c));

/** A field's choices: known in advance, or read once from the engine. */
export function useFieldOptions(fields: FieldDef[]): Record<string, Option[]> {
  const [options, setOptions] = useState<Record<string, Option[]>>({});
  useEffect(() => {
    for (const f of fields)
      if (f.options) void f.options().then((o) => setOptions((prev) => ({ ...prev, [f.name]: o })));
  }, [fields]);
  return Object.fromEntries(fields.map((f) => [f.name, f.choices ? asOptions(f.choices) : (options[f.name] ?? [])]));
}

interface Props {
  def: FieldDef;
  /** Unique on the page: several forms can share one. */
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
  error?: string;
  choices: Option[];
}

/** One labelled field of any kind, its hint or its error beside it (forms and drafts alike). */
export function FieldControl({ def: f, id, value: v, onChange, error: err, choices }: Props) {
  const described = err ? `${id}-error` : f.hint ? `${id}-hint` : undefined;
  const cls = `field ${err ? 'invalid' : ''} ${f.kind === 'checkbox' ? 'check' : ''}`;
  const label = (
    <>
      {f.label}
      {f.required && (
        <span className="req" aria-hidden="true">
          {' '}
          *
        </span>
      )}
    </>
  );
  if (
    f.kind === 'text' ||
    f.kind === 'email' ||
    f.kind === 'password' ||
    f.kind === 'textarea' ||
    f.kind === 'number' ||
    f.kind === 'url'
  ) {
    return (
      <TextField
        className={cls}
        value={v === undefined || v === null ? '' : String(v)}
        onChange={(x) => onChange(f.kind === 'number' ? (x === '' ? undefined : Number(x)) : x)}
        isRequired={f.required}
        isInvalid={!!err}
        validationBehavior="aria"
        type={f.kind === 'textarea' || f.kind === 'number' ? 'text' : f.kind}
      >
        <Label>{label}</Label>
        {f.kind === 'textarea' ? (
          <TextArea />
        ) : (
          <Input
            inputMode={f.kind === 'number' ? 'numeric' : undefined}
            autoComplete={f.kind === 'password' ? 'new-password' : 'off'}
            list={f.suggestions ? `${id}-suggestions` : undefined}
          />
        )}
        {f.suggestions && (
          <datalist id={`${id}-suggestions`}>
            {f.suggestions.map((x) => (
              <option key={x} value={x} />
            ))}
          </datalist>
        )}
        {f.hint && !err && (
          <Text slot="description" className="hint">
            {f.hint}
          </Text>
        )}
        <AriaFieldError className="field-error">{err}</AriaFieldError>
      </TextField>
    );
  }
  let input;
  if (f.kind === 'checkbox')
    input = (
      <input
        id={id}
        type="checkbox"
        checked={!!v}
        aria-describedby={described}
        onChange={(e) => onChange(e.target.checked)}
      />
    );
  else if (f.kind === 'select') {
    input = (
      <select
        id={id}
        value={String(v ?? '')}
        aria-invalid={!!err}
        aria-required={f.required}
        aria-describedby={described}
        onChange={(e) => onChange(e.target.value || null)}
      >
        <option value="">{f.required ? 'Choose…' : '—'}</option>
        {choices.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    );
  } else if (f.kind === 'multi') {
    const chosen = new Set((v as string[] | undefined) ?? []);
    input = (
      <div className="multi" id={id} role="group" aria-label={f.label} aria-describedby={described}>
        {choices.map((o) => (
          <label key={o.id} className="chip">
            <input
              type="checkbox"
              checked={chosen.has(o.id)}
              onChange={(e) => onChange(e.target.checked ? [...chosen, o.id] : [...chosen].filter((x) => x !== o.id))}
            />
            {o.name}
          </label>
        ))}
      </div>
    );
  } else
    input = (
      <input
        id={id}
        // A time of day (HH:mm) picks like the schedules' hours; a moment picks its date too.
        type={f.kind === 'time' ? 'time' : 'datetime-local'}
        value={String(v ?? '')}
        aria-invalid={!!err}
        aria-describedby={described}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  return (
    <div className={cls}>
      <label htmlFor={id}>{label}</label>
      {input}
      {f.hint && !err && (
        <small className="hint" id={`${id}-hint`}>
          {f.hint}
        </small>
      )}
      {err && (
        <small className="field-error" id={`${id}-error`}>
          {err}
        </small>
      )}
    </div>
  );
}
