import { useId } from 'react';
import { FieldControl, useFieldOptions } from './FieldControl';
import type { FieldDef } from './field-def';

interface Props<V> {
  fields: FieldDef[];
  values: V;
  /** One field changed; `key` groups a run of typing into one undo step. */
  onChange: (change: Partial<V>, key: string) => void;
  errors?: Record<string, string>;
}

/** Fields bound to a part of a draft: every change goes to the draft (and its undo), nothing is saved here. */
export function DraftFields<V extends object>({ fields, values, onChange, errors = {} }: Props<V>) {
  const id = useId();
  const choices = useFieldOptions(fields);
  return (
    <div className="form">
      {fields.map((f) => (
        <FieldControl
          key={f.name}
          def={f}
          id={`${id}-${f.name}`}
          value={(values as Record<string, unknown>)[f.name]}
          // A cleared text is null, as the engine stores it; checkboxes and numbers as they are.
          onChange={(x) => onChange({ [f.name]: x === '' && !f.required ? null : x } as Partial<V>, `${id}-${f.name}`)}
          error={errors[f.name]}
          choices={choices[f.name]}
        />
      ))}
    </div>
  );
}
