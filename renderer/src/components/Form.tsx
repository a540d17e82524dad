import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { FieldError } from '../bridge';
import { placeErrors } from './field-errors';
import { asOptions, FieldControl, useFieldOptions } from './FieldControl';
import type { FieldDef, FormValues } from './field-def';

export type { FieldDef, FormValues, Option } from './field-def';

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
  /** What the submit button says while the work goes on ("Backing up…"); "Saving…" unless told. */
  busyLabel?: string;
}

/** An operation's answer as a form's outcome: null when it succeeded, its errors when not. */
export const submitOutcome = (a: { ok: boolean; error: string | null; errorDetails: FieldError[] }): SubmitOutcome =>
  a.ok ? null : { error: a.error, errorDetails: a.errorDetails };

/**
 * A form whose every error of a submit shows at once, beside its field in words a person reads,
 * with focus moved to the first; what no field shows is summed up above the fields.
 */
export function Form({ fields, initial, submitLabel, onSubmit, onCancel, children, clearOnSuccess, busyLabel }: Props) {
  const [values, setValues] = useState<FormValues>(initial);
  /** The field whose fill button is reading, if any. */
  const [filling, setFilling] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [summary, setSummary] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const choices = useFieldOptions(fields);
  const formRef = useRef<HTMLFormElement>(null);
  // Several forms can share a page (the project workspace): ids must not collide.
  const formId = useId();

  // A required choice with one option only (the one organization) starts chosen: nothing to decide.
  useEffect(() => {
    const only = fields.filter(
      (f) =>
        f.required &&
        (f.kind === 'multi' || f.kind === 'select') &&
        choices[f.name]?.length === 1 &&
        (values[f.name] === undefined ||
          values[f.name] === null ||
          values[f.name] === '' ||
          (Array.isArray(values[f.name]) && !(values[f.name] as unknown[]).length)),
    );
    if (!only.length) return;
    setValues((v) => ({
      ...v,
      ...Object.fromEntries(
        only.map((f) => [f.name, f.kind === 'multi' ? [choices[f.name][0].id] : choices[f.name][0].id]),
      ),
    }));
  }, [fields, choices, values]);

  // After a refused submit, the first field in error (or the summary) takes the focus.
  useEffect(() => {
    if (!Object.keys(errors).length && !summary.length) return;
    const first = formRef.current?.querySelector<HTMLElement>(
      '.field.invalid input, .field.invalid select, .field.invalid textarea, .field.invalid [role="group"] input, .form-summary',
    );
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
    setSummary(
      placed.unplaced.length || Object.keys(placed.byField).length
        ? placed.unplaced
        : [result.error ?? 'That did not work.'],
    );
  };

  const set = (name: string, value: unknown) =>
    setValues((v) => {
      const next = { ...v, [name]: value };
      // A choice that follows another field moves to the first one offered when its value no longer is.
      for (const f of fields) {
        const offered = f.choicesWhen?.(next);
        if (offered?.length && !asOptions(offered).some((o) => o.id === next[f.name]))
          next[f.name] = asOptions(offered)[0].id;
      }
      return next;
    });
  return (
    <form ref={formRef} className="form" onSubmit={submit} noValidate>
      {summary.length > 0 && (
        <div className="form-summary error-banner" role="alert" tabIndex={-1}>
          {summary.length === 1 ? (
            summary[0]
          ) : (
            <ul>
              {summary.map((s) => (
                <li key={s}>{s}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {fields
        .filter((f) => !f.shownWhen || f.shownWhen(values))
        .map((f) => (
          <div key={f.name} className={f.fill ? 'field-with-fill' : undefined}>
            <FieldControl
              def={f}
              id={`${formId}-${f.name}`}
              value={values[f.name]}
              onChange={(x) => set(f.name, x)}
              error={errors[f.name]}
              choices={f.choicesWhen?.(values) ? asOptions(f.choicesWhen(values)!) : choices[f.name]}
            />
            {f.fill && (
              <button
                type="button"
                disabled={filling === f.name}
                onClick={async () => {
                  setFilling(f.name);
                  try {
                    const got = await f.fill!.run(values);
                    setValues((v) => ({ ...v, ...got }));
                    setErrors((e) => ({ ...e, [f.name]: '' }));
                  } catch (e) {
                    setErrors((prev) => ({ ...prev, [f.name]: (e as Error).message }));
                  } finally {
                    setFilling(null);
                  }
                }}
              >
                {filling === f.name ? 'Reading…' : f.fill.label}
              </button>
            )}
          </div>
        ))}
      {children}
      <div className="form-actions">
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? (busyLabel ?? 'Saving…') : submitLabel}
        </button>
      </div>
    </form>
  );
}
