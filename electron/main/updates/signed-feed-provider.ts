// electron-updater's generic feed, taking the metadata only when its signature holds
// (update-signature.ts): the feed's `latest*.yml` and its `.sig` are read, verified with the key
// built into the app, and only then parsed; the files it lists are fetched and checked against its
// sha512 by electron-updater as usual.

import type { CustomPublishOptions, UpdateInfo } from 'builder-util-runtime';
import electronUpdater, { type AppUpdater, type ResolvedUpdateFileInfo } from 'electron-updater';
import providerHelpers, { type ProviderRuntimeOptions } from 'electron-updater/out/providers/Provider.js';
import utilHelpers from 'electron-updater/out/util.js';
import type { KeyObject } from 'node:crypto';
import { SIGNATURE_SUFFIX, verifiedMetadata } from './update-signature.ts';

// CommonJS modules: their named exports are read from the default export.
const { Provider } = electronUpdater;
const { parseUpdateInfo, resolveFiles } = providerHelpers;
const { getChannelFilename, newUrlFromBase } = utilHelpers;

/** The provider class electron-updater's `custom` feed is given, bound to this build's key. */
export function signedFeedProvider(key: KeyObject) {
  return class SignedFeedProvider extends Provider<UpdateInfo> {
    private readonly baseUrl: URL;

    constructor(
      options: CustomPublishOptions,
      private readonly updater: AppUpdater,
      runtimeOptions: ProviderRuntimeOptions,
    ) {
      super(runtimeOptions);
      // electron-update-checker.ts passes the feed's address beside the provider.
      const { url } = options as CustomPublishOptions & { url?: unknown };
      if (typeof url !== 'string') throw new Error('the update feed has no address');
      const base = new URL(url);
      if (!base.pathname.endsWith('/')) base.pathname += '/';
      this.baseUrl = base;
    }

    private get channel(): string {
      const { channel } = this.updater;
      return channel ? this.getCustomChannelName(channel) : this.getDefaultChannelName();
    }

    override async getLatestVersion(): Promise<UpdateInfo> {
      const file = getChannelFilename(this.channel);
      const url = newUrlFromBase(file, this.baseUrl, true);
      const metadata = await this.httpRequest(url);
      const signature = await this.httpRequest(
        newUrlFromBase(`${file}${SIGNATURE_SUFFIX}`, this.baseUrl, true),
      ).catch(() => null);
      return parseUpdateInfo(verifiedMetadata(file, metadata, signature, key), file, url);
    }

    override resolveFiles(updateInfo: UpdateInfo): ResolvedUpdateFileInfo[] {
      return resolveFiles(updateInfo, this.baseUrl);
    }
  };
}
