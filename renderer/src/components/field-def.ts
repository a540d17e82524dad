// What a field of a form (or of a draft) is: its kind, label, choices and when it shows.

export interface Option {
  id: string;
  name: string;
}

export interface FieldDef {
  name: string;
  label: string;
  kind:
    | 'text'
    | 'email'
    | 'textarea'
    | 'password'
    | 'checkbox'
    | 'number'
    | 'datetime'
    | 'time'
    | 'select'
    | 'multi'
    | 'url';
  required?: boolean;
  hint?: string;
  /** Choices read from the engine (a list operation). */
  options?: () => Promise<Option[]>;
  /** Choices known in advance: the values of an enumeration of the interface. */
  choices?: readonly string[] | readonly Option[];
  /** Choices that follow other fields (a report's formats): the value moves to the first when it is no longer offered. */
  choicesWhen?: (values: FormValues) => readonly string[] | readonly Option[] | null;
  /** Values a text field offers as it is typed in (time zones): any other value may still be typed. */
  suggestions?: readonly string[];
  /** Shown only when the form's values call for it (an FTP host only for FTP): hidden fields keep their values. */
  shownWhen?: (values: FormValues) => boolean;
  /**
   * A button beside the field that fills other fields from it ("Fill from issuer"): it answers the
   * values to set, or throws an Error whose message is said under the field.
   */
  fill?: { label: string; run: (values: FormValues) => Promise<FormValues> };
}

export type FormValues = Record<string, unknown>;
