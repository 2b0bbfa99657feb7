// The main-side services and the Bridge handlers over them, wired the same way in Electron and in
// the browser-preview host; only the ports differ (where secrets, settings and files go, how a
// browser is opened, how a save path is chosen, where the diagnostics log is written).

import type { ConnectionProfile } from '@shared/settings.ts';
import { AuthService } from './auth/auth-service.ts';
import type { OpenExternal, SecretStore } from './auth/ports.ts';
import type { BridgeHandlers } from './bridge/handlers.ts';
import { DiagnosticsLog, platformOrigins, type LogFile } from './diagnostics/diagnostics-log.ts';
import { ExportService } from './exports/export-service.ts';
import { FileService, type ChooseSavePath } from './files/file-service.ts';
import { StoredFiles, type OpenPath } from './files/stored-files.ts';
import type { ConfirmAddressChange } from './settings/address-change.ts';
import { SettingsService, type KeyValueStore } from './settings/settings-service.ts';
import { Transport } from './transport/transport.ts';
import { updateChannels } from './updates/update-channels.ts';
import { UpdateService, type UpdateChecker } from './updates/update-service.ts';

export interface HostPorts {
  settingsStore: KeyValueStore;
  secrets: SecretStore;
  openExternal: OpenExternal;
  chooseSavePath: ChooseSavePath;
  cacheDir: string;
  /**
   * Opens a file with the system's viewer (Electron: shell.openPath). Absent where none can be
   * started (the browser preview): an opened file is saved where `chooseSavePath` says instead.
   */
  openPath?: OpenPath;
  defaultProfile?: ConnectionProfile;
  /** Asks before a profile that moves the sign-in or a base address is saved (every host decides how). */
  confirmAddressChange: ConfirmAddressChange;
  /** How the installed app looks for updates; absent (the preview, a development build): never. */
  updateChecker?: UpdateChecker;
  /** An installed build made without the update key: it never updates itself, and Settings says why. */
  updatesUnverifiable?: boolean;
  /** The diagnostics log's file; without one (tests that do not read it) nothing is written. */
  logFile?: LogFile;
}

export interface MainServices {
  settings: SettingsService;
  auth: AuthService;
  transport: Transport;
  files: FileService;
  storedFiles: StoredFiles;
  exports: ExportService;
  diagnostics: DiagnosticsLog;
  /** Null where this copy never looks for updates. */
  updates: UpdateService | null;
  handlers: BridgeHandlers;
}

const NO_LOG_FILE: LogFile = { append: () => undefined, recent: () => Promise.resolve('') };

export function createServices(ports: HostPorts): MainServices {
  const settings = new SettingsService(
    ports.settingsStore,
    ports.secrets,
    ports.defaultProfile,
    ports.confirmAddressChange,
  );
  const auth = new AuthService({
    profile: () => settings.profile(),
    clientSecret: () => settings.clientSecret(),
    secrets: ports.secrets,
    openExternal: ports.openExternal,
    // Tokens forgotten, every request of the session ends at once (no pull outlives a sign-out).
    signedOut: () => transport.endSession(),
  });
  const diagnostics = new DiagnosticsLog(ports.logFile ?? NO_LOG_FILE, ports.chooseSavePath);
  const transport = new Transport({
    profile: () => settings.profile(),
    tokens: auth,
    onFailure: (event) => diagnostics.transportFailed(event),
  });
  const platformFiles = {
    download: transport.download.bind(transport),
    address: transport.downloadAddress.bind(transport),
  };
  const files = new FileService(
    platformFiles,
    ports.cacheDir,
    ports.chooseSavePath,
    async () => (await auth.status()).identity?.user ?? null,
  );
  const storedFiles = new StoredFiles(files, platformFiles, ports.openPath ?? null);
  const exports = new ExportService(ports.chooseSavePath);
  const updates = ports.updateChecker
    ? new UpdateService(() => settings.updateFeedUrl(), ports.updateChecker)
    : null;
  const handlers: BridgeHandlers = {
    'auth.status': () => auth.status(),
    'auth.beginSignIn': (target) => auth.beginSignIn(target),
    'auth.finishSignIn': (flowId) => auth.finishSignIn(flowId),
    'auth.cancelSignIn': (flowId) => auth.cancelSignIn(flowId),
    'auth.signOut': () => auth.signOut(),
    'auth.bindIdentity': (identity) => auth.bindIdentity(identity),
    'api.request': (request) => transport.request(request),
    'files.download': (request) => files.fetch(request),
    'files.preview': (request) => files.preview(request),
    'files.forgetUser': (user) => files.forgetUser(user),
    'files.open': (request) => storedFiles.open(request),
    'files.save': (request) => storedFiles.save(request),
    'files.openSaved': (path) => storedFiles.openSaved(path),
    'files.keep': (requests) => storedFiles.keep(requests),
    'files.kept': (requests) => storedFiles.kept(requests),
    'files.transfers': () => storedFiles.underWay(),
    'exports.begin': (name) => exports.begin(name),
    'exports.write': (exportId, chunk) => exports.write(exportId, chunk),
    'exports.finish': (exportId) => exports.finish(exportId),
    'exports.cancel': (exportId) => exports.cancel(exportId),
    'settings.get': () => settings.view(),
    'settings.saveProfile': async (profile) => {
      const saved = await settings.saveProfile(profile);
      // A changed profile may point at other servers: forget tokens and limits of the old one.
      if (saved.ok) await auth.profileChanged();
      if (saved.ok) transport.profileChanged();
      if (saved.ok) diagnostics.platformChanged(platformOrigins(settings.profile()));
      return saved;
    },
    'settings.setPreferences': (preferences) => settings.setPreferences(preferences),
    ...updateChannels(settings, updates, ports.updatesUnverifiable === true),
    'diagnostics.report': (entry) => diagnostics.report(entry),
    'diagnostics.save': () => diagnostics.save(),
  };
  return { settings, auth, transport, files, storedFiles, exports, diagnostics, updates, handlers };
}
