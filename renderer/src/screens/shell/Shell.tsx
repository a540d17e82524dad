import type { ReactNode } from 'react';
import { hashOf, useNav, type ScreenId } from '../../stores/nav/nav.store';
import { selectMayCall, useSession } from '../../stores/session/session.store';
import type { OpId } from '../../../../engine/catalogue';
import { UsersScreen } from '../users/UsersScreen';
import { ProjectsScreen } from '../projects/ProjectsScreen';
import { AppsScreen } from '../apps/AppsScreen';
import { GroupsScreen } from '../groups/GroupsScreen';
import { RolesScreen } from '../roles/RolesScreen';
import { OrganizationsScreen } from '../organizations/OrganizationsScreen';
import { ApiKeysScreen } from '../api-keys/ApiKeysScreen';
import { IdentityProvidersScreen } from '../identity-providers/IdentityProvidersScreen';
import { TrustedOriginsScreen } from '../trusted-origins/TrustedOriginsScreen';
import { UserDirectoriesScreen } from '../user-directories/UserDirectoriesScreen';
import { ResourcesScreen } from '../resources/ResourcesScreen';
import { SettingsScreen } from '../settings/SettingsScreen';
import { TasksScreen } from '../tasks/TasksScreen';
import { ConditionsScreen } from '../conditions/ConditionsScreen';
import { MonitoringScreen } from '../monitoring/MonitoringScreen';
import { StorageServicesScreen } from '../storage/StorageServicesScreen';
import { DataConnectionsScreen } from '../data-connections/DataConnectionsScreen';
import { HubScreen } from '../hub/HubScreen';
import { ProfileScreen } from '../profile/ProfileScreen';

type Area = 'Reports' | 'Distribution' | 'Hub' | 'Administration';
interface ScreenDef {
  id: ScreenId;
  label: string;
  area: Area;
  op: OpId;
  render: () => ReactNode;
}

// Each screen shows when the caller may call the operation that lists what it shows; the menu
// groups them by the work they serve, in this order.
const AREAS: Area[] = ['Reports', 'Distribution', 'Hub', 'Administration'];
const SCREENS: ScreenDef[] = [
  { id: 'projects', label: 'Projects', area: 'Reports', op: 'v1.projects.list', render: () => <ProjectsScreen /> },
  { id: 'apps', label: 'Analytics apps', area: 'Reports', op: 'v1.analyticsApps.list', render: () => <AppsScreen /> },
  {
    id: 'data-connections',
    label: 'Data connections',
    area: 'Reports',
    op: 'app.dataConnections.list',
    render: () => <DataConnectionsScreen />,
  },
  { id: 'tasks', label: 'Tasks', area: 'Distribution', op: 'v1.tasks.list', render: () => <TasksScreen /> },
  {
    id: 'conditions',
    label: 'Conditions',
    area: 'Distribution',
    op: 'v1.conditions.list',
    render: () => <ConditionsScreen />,
  },
  {
    id: 'monitoring',
    label: 'Monitoring',
    area: 'Distribution',
    op: 'app.requests.list',
    render: () => <MonitoringScreen />,
  },
  {
    id: 'storage',
    label: 'Storage services',
    area: 'Distribution',
    op: 'v1.storageServices.list',
    render: () => <StorageServicesScreen />,
  },
  { id: 'hub', label: 'Published files', area: 'Hub', op: 'v1.files.list', render: () => <HubScreen /> },
  { id: 'resources', label: 'Resources', area: 'Hub', op: 'v1.resources.list', render: () => <ResourcesScreen /> },
  { id: 'users', label: 'Users', area: 'Administration', op: 'v1.users.list', render: () => <UsersScreen /> },
  { id: 'groups', label: 'Groups', area: 'Administration', op: 'v1.groups.list', render: () => <GroupsScreen /> },
  { id: 'roles', label: 'Roles', area: 'Administration', op: 'v1.roles.list', render: () => <RolesScreen /> },
  {
    id: 'organizations',
    label: 'Organizations',
    area: 'Administration',
    op: 'v1.organizations.list',
    render: () => <OrganizationsScreen />,
  },
  {
    id: 'user-directories',
    label: 'User directories',
    area: 'Administration',
    op: 'v1.userDirectories.list',
    render: () => <UserDirectoriesScreen />,
  },
  {
    id: 'identity-providers',
    label: 'Identity providers',
    area: 'Administration',
    op: 'v1.identityProviders.list',
    render: () => <IdentityProvidersScreen />,
  },
  {
    id: 'trusted-origins',
    label: 'Trusted origins',
    area: 'Administration',
    op: 'v1.trustedOrigins.list',
    render: () => <TrustedOriginsScreen />,
  },
  {
    id: 'api-keys',
    label: 'API keys',
    area: 'Administration',
    op: 'v1.apiKeys.listOwn',
    render: () => <ApiKeysScreen />,
  },
  {
    id: 'settings',
    label: 'Settings',
    area: 'Administration',
    op: 'app.settings.getAuthenticationMethods',
    render: () => <SettingsScreen />,
  },
];

/** The fixed frame: the menu grouped by area on the left, the current screen scrolling on the right. */
/** Moves the keyboard to the screen without touching the address (the app's places live in the hash). */
function skipToContent(e: { preventDefault(): void }) {
  e.preventDefault();
  document.getElementById('content')?.focus();
}

export function Shell() {
  const screen = useNav((s) => s.screen);
  const screenChosen = useNav((s) => s.screenChosen);
  const me = useSession((s) => s.me);
  const signOutRequested = useSession((s) => s.signOutRequested);
  const visible = SCREENS.filter((s) => selectMayCall(s.op)({ me }));
  const current = visible.find((s) => s.id === screen) ?? visible[0];
  // One's own account is everyone's, outside the menu's areas: opened from one's name.
  const onProfile = screen === 'profile';
  return (
    <div className="shell">
      {/* The first Tab stop: past the menu to the screen, for the keyboard. */}
      <a className="skip-link" href="#content" onClick={skipToContent}>
        Skip to the screen
      </a>
      <nav className="sidebar" aria-label="Main">
        <div className="brand">Broadsheet</div>
        <div className="nav-areas">
          {AREAS.map((area) => {
            const entries = visible.filter((s) => s.area === area);
            if (!entries.length) return null;
            return (
              <section key={area} className="nav-area" aria-labelledby={`nav-${area}`}>
                <h2 id={`nav-${area}`}>{area}</h2>
                <ul>
                  {entries.map((s) => (
                    <li key={s.id}>
                      {/* A link, not a button: each screen has its address (open it in a new tab); the
                          hash listener asks the unsaved-work guard before it is taken. */}
                      <a
                        href={hashOf(s.id, [])}
                        className={s.id === current?.id && !onProfile ? 'active' : ''}
                        aria-current={s.id === current?.id && !onProfile ? 'page' : undefined}
                      >
                        {s.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </section>
            );
          })}
        </div>
        <div className="me">
          <button
            type="button"
            className={onProfile ? 'active' : ''}
            aria-current={onProfile ? 'page' : undefined}
            onClick={() => screenChosen('profile')}
            title="Your account: name and password"
          >
            {me?.user.fullName}
          </button>
          <button type="button" onClick={() => void signOutRequested()}>
            Sign out
          </button>
        </div>
      </nav>
      <main className="content" id="content" tabIndex={-1}>
        {onProfile ? (
          <ProfileScreen />
        ) : current ? (
          current.render()
        ) : (
          <p className="empty">Your roles give you nothing to administer here.</p>
        )}
      </main>
    </div>
  );
}
