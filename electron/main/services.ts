// The main-side services and the Bridge handlers over them, wired the same way in Electron and in
// the browser-preview host; only the ports differ (where secrets, settings and files go, how a
// browser is opened, how a save path is chosen).

import type { ConnectionProfile } from '../../shared/settings.ts';
import { AuthService } from './auth/auth-service.ts';
import type { OpenExternal, SecretStore } from './auth/ports.ts';
import type { BridgeHandlers } from './bridge/handlers.ts';
import { FileService, type ChooseSavePath } from './files/file-service.ts';
import { SettingsService, type KeyValueStore } from './settings/settings-service.ts';
import { Transport } from './transport/transport.ts';

export interface HostPorts {
  settingsStore: KeyValueStore;
  secrets: SecretStore;
  openExternal: OpenExternal;
  chooseSavePath: ChooseSavePath;
  cacheDir: string;
  defaultProfile?: ConnectionProfile;
}

export interface MainServices {
  settings: SettingsService;
  auth: AuthService;
  transport: Transport;
  files: FileService;
  handlers: BridgeHandlers;
}

export function createServices(ports: HostPorts): MainServices {
  const settings = new SettingsService(ports.settingsStore, ports.secrets, ports.defaultProfile);
  const auth = new AuthService({
    profile: () => settings.profile(),
    clientSecret: () => settings.clientSecret(),
    secrets: ports.secrets,
    openExternal: ports.openExternal,
  });
  const transport = new Transport({ profile: () => settings.profile(), tokens: auth });
  const files = new FileService((url, o) => transport.download(url, o), ports.cacheDir, ports.chooseSavePath);
  const handlers: BridgeHandlers = {
    'auth.status': () => auth.status(),
    'auth.beginSignIn': (target) => auth.beginSignIn(target),
    'auth.finishSignIn': (flowId) => auth.finishSignIn(flowId),
    'auth.cancelSignIn': (flowId) => auth.cancelSignIn(flowId),
    'auth.signOut': () => auth.signOut(),
    'api.request': (request) => transport.request(request),
    'files.download': (request) => files.fetch(request),
    'settings.get': () => settings.view(),
    'settings.saveProfile': async (profile) => {
      const saved = await settings.saveProfile(profile);
      // A changed profile may point at other servers: forget tokens and limits of the old one.
      if (saved.ok) await auth.profileChanged();
      if (saved.ok) transport.profileChanged();
      return saved;
    },
    'settings.setPreferences': (preferences) => settings.setPreferences(preferences),
  };
  return { settings, auth, transport, files, handlers };
}
