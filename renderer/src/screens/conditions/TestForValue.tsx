import { useEffect, useId, useState } from 'react';
import { invoke } from '../../bridge';

/** One value to test a condition for ("Region = EMEA"), or none: the whole app. */
export interface TestValue {
  field: string;
  value: string;
}

/**
 * Picks the value a condition is tested for, as a task iterating over it would test it: a field of
 * the rules' app, then one of its values (read from the app). Empty: tested on the whole app.
 */
export function TestForValue({
  appId,
  fields,
  value,
  changed,
}: {
  appId: string | null;
  fields: string[];
  value: TestValue | null;
  changed: (v: TestValue | null) => void;
}) {
  const id = useId();
  const [field, setField] = useState(value?.field ?? '');
  const [values, setValues] = useState<string[]>([]);
  useEffect(() => {
    if (!appId || !field) return setValues([]);
    let current = true;
    void invoke('app.analytics.fieldValues', { params: { id: appId }, body: { field, limit: 500 } }).then((a) => {
      if (current) setValues(a.ok ? a.data.map((x) => String(x.value)) : []);
    });
    return () => {
      current = false;
    };
  }, [appId, field]);
  if (!appId || !fields.length) return null;
  return (
    <div className="filter-bar" role="group" aria-label="Test for one value">
      <div className="field">
        <label htmlFor={`${id}-field`}>Test for</label>
        <select
          id={`${id}-field`}
          value={field}
          onChange={(e) => {
            setField(e.target.value);
            changed(null);
          }}
        >
          <option value="">The whole app</option>
          {fields.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </div>
      {field && (
        <div className="field">
          <label htmlFor={`${id}-value`}>Value</label>
          <select
            id={`${id}-value`}
            value={value?.field === field ? value.value : ''}
            onChange={(e) => changed(e.target.value ? { field, value: e.target.value } : null)}
          >
            <option value="">Choose…</option>
            {values.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}
