import { useEffect, useState } from 'react';
import { invoke, type Answer } from '../../bridge';
import type { ResultOf } from '../../../../engine/catalogue';
import { Dialog } from '../../components/Dialog';
import { Form, submitOutcome, type Option } from '../../components/Form';
import { organizationOptions, orNull, text } from '../../components/options';

type Outcome = ResultOf<'v2.users.invite'>;

/** The addresses of a text box: one per line, or separated by commas or semicolons. */
const addressesOf = (v: unknown) =>
  text(v)
    .split(/[\n,;]+/)
    .map((x) => x.trim())
    .filter(Boolean);

/** The engine names a bad address by its position; a person reads it by the address itself. */
function byAddress<T>(a: Answer<T>, emails: string[]): Answer<T> {
  if (a.ok || !a.errorDetails) return a;
  return {
    ...a,
    errorDetails: a.errorDetails.map((d) => {
      const at = /^body\.emails\.(\d+)$/.exec(d.field);
      return at ? { field: 'body.emails', message: `“${emails[Number(at[1])]}” ${d.message}` } : d;
    }),
  };
}

/**
 * Invites people by e-mail: each gets a mail with a link to choose their password (once, within
 * seven days) and joins the organization chosen with the role chosen. Addresses already in use are
 * named afterwards, not refused.
 */
export function InviteDialog({ done }: { done: (invited: number) => void }) {
  const [roles, setRoles] = useState<Option[]>([]);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  useEffect(() => {
    // The invitation names a role by its name.
    void invoke('v1.roles.listSimple', { query: { get_all: true } }).then(
      (a) => a.ok && setRoles(a.data.map((r) => ({ id: r.name, name: r.name }))),
    );
  }, []);
  return (
    <Dialog title="Invite people" onClose={() => done(outcome?.invited.length ?? 0)}>
      {outcome ? (
        <div role="status">
          <p>
            {outcome.invited.length === 0
              ? 'Nobody new was invited.'
              : `Invited ${outcome.invited.length} ${outcome.invited.length === 1 ? 'person' : 'people'}; each receives a mail with a link to choose a password.`}
          </p>
          {outcome.invited.length > 0 && (
            <ul>
              {outcome.invited.map((x) => (
                <li key={x.userId}>{x.email}</li>
              ))}
            </ul>
          )}
          {outcome.skipped.length > 0 && (
            <>
              <p>Left out:</p>
              <ul>
                {outcome.skipped.map((x) => (
                  <li key={x.email}>
                    {x.email} — {x.reason}
                  </li>
                ))}
              </ul>
            </>
          )}
          <div className="form-actions">
            <button type="button" className="primary" onClick={() => done(outcome.invited.length)}>
              Done
            </button>
          </div>
        </div>
      ) : (
        <Form
          fields={[
            {
              name: 'emails',
              label: 'E-mail addresses',
              kind: 'textarea',
              required: true,
              hint: 'One per line, or separated by commas',
            },
            {
              name: 'organization',
              label: 'Organization',
              kind: 'select',
              required: true,
              options: organizationOptions,
            },
            {
              name: 'role',
              label: 'Role',
              kind: 'select',
              choices: roles,
              hint: 'The role they start with; none when empty',
            },
          ]}
          initial={{ emails: '', organization: '', role: '' }}
          submitLabel="Send invitations"
          onCancel={() => done(0)}
          onSubmit={async (v) => {
            const emails = addressesOf(v.emails);
            const a = byAddress(
              await invoke('v2.users.invite', {
                body: { emails, organizations: [{ organizationID: text(v.organization), roleName: orNull(v.role) }] },
              }),
              emails,
            );
            if (a.ok) setOutcome(a.data);
            return submitOutcome(a);
          }}
        />
      )}
    </Dialog>
  );
}
