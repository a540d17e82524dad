import type { ReactNode } from 'react';
import { useNav, type ScreenId } from '../../stores/nav/nav.store';
import { selectCan, useSession } from '../../stores/session/session.store';
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

const SCREENS: { id: ScreenId; label: string; permission: string; render: () => ReactNode }[] = [
  { id: 'projects', label: 'Projects', permission: 'viewProject', render: () => <ProjectsScreen /> },
  { id: 'apps', label: 'Analytics apps', permission: 'viewProject', render: () => <AppsScreen /> },
  { id: 'users', label: 'Users', permission: 'viewUser', render: () => <UsersScreen /> },
  { id: 'groups', label: 'Groups', permission: 'viewGroup', render: () => <GroupsScreen /> },
  { id: 'roles', label: 'Roles', permission: 'viewUser', render: () => <RolesScreen /> },
  { id: 'organizations', label: 'Organizations', permission: 'viewSystem', render: () => <OrganizationsScreen /> },
  { id: 'resources', label: 'Resources', permission: 'viewSystem', render: () => <ResourcesScreen /> },
  { id: 'user-directories', label: 'User directories', permission: 'viewUserDirectory', render: () => <UserDirectoriesScreen /> },
  { id: 'identity-providers', label: 'Identity providers', permission: 'viewSettings', render: () => <IdentityProvidersScreen /> },
  { id: 'trusted-origins', label: 'Trusted origins', permission: 'viewSettings', render: () => <TrustedOriginsScreen /> },
  { id: 'api-keys', label: 'API keys', permission: 'useApiKeys', render: () => <ApiKeysScreen /> },
  { id: 'settings', label: 'Settings', permission: 'viewSettings', render: () => <SettingsScreen /> },
];

export function Shell() {
  const screen = useNav((s) => s.screen);
  const screenChosen = useNav((s) => s.screenChosen);
  const me = useSession((s) => s.me);
  const signOutRequested = useSession((s) => s.signOutRequested);
  const visible = SCREENS.filter((s) => selectCan(s.permission)({ me } as never));
  const current = visible.find((s) => s.id === screen) ?? visible[0];
  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Main">
        <div className="brand">Broadsheet</div>
        <ul>
          {visible.map((s) => (
            <li key={s.id}>
              <button type="button" className={s.id === current?.id ? 'active' : ''} aria-current={s.id === current?.id ? 'page' : undefined} onClick={() => screenChosen(s.id)}>
                {s.label}
              </button>
            </li>
          ))}
        </ul>
        <div className="me">
          <span>{me?.user.fullName}</span>
          <button type="button" onClick={() => void signOutRequested()}>Sign out</button>
        </div>
      </nav>
      <div className="content">{current ? current.render() : <p className="empty">Your roles give you nothing to administer here.</p>}</div>
    </div>
  );
}
