import { invoke } from '../../bridge';
import { Form, submitOutcome } from '../../components/Form';
import { toastSucceeded } from '../../stores/feedback/toasts';
import { selectMayCall, useSession } from '../../stores/session/session.store';
import { MySubscriptions } from '../hub/MySubscriptions';
import { ProfileDetails } from './ProfileDetails';

/** One's own account, open to everyone signed in (a hub reader too): who one is, one's password and subscriptions. */
export function ProfileScreen() {
  const me = useSession((s) => s.me);
  const mayListSubscriptions = useSession(selectMayCall('v1.subscriptions.listOwn'));
  return (
    <section className="screen">
      <header className="screen-head">
        <div>
          <h1>Your account</h1>
          <p className="status-line">
            {me?.user.fullName}
            {me?.user.email ? ` · ${me.user.email}` : ''}
          </p>
        </div>
      </header>
      <div className="panel">
        <h2>Your details</h2>
        <ProfileDetails />
      </div>
      <div className="panel">
        <h2>Your password</h2>
        {me?.user.directoryId ? (
          <p className="hint">
            You sign in with your directory password: change it where your organization manages it.
          </p>
        ) : (
          <Form
            fields={[
              { name: 'currentPassword', label: 'Current password', kind: 'password', required: true },
              {
                name: 'newPassword',
                label: 'New password',
                kind: 'password',
                required: true,
                hint: 'At least 8 characters',
              },
            ]}
            initial={{}}
            submitLabel="Change password"
            clearOnSuccess
            onSubmit={async (v) => {
              const a = await invoke('app.auth.changePassword', {
                body: { currentPassword: String(v.currentPassword ?? ''), newPassword: String(v.newPassword ?? '') },
              });
              if (a.ok) toastSucceeded('Password changed; your other sessions were signed out.');
              return submitOutcome(a);
            }}
          />
        )}
      </div>
      {mayListSubscriptions && (
        <div className="panel">
          <h2>Your subscriptions</h2>
          <MySubscriptions />
        </div>
      )}
    </section>
  );
}
