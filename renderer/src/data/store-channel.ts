// The BroadcastChannel on which the windows of one store name the records a committed transaction
// wrote, so that each window's indexes in memory (account-index/, engagement-index.ts) read them
// again. Absent where there is no BroadcastChannel.

/** BroadcastChannel, as far as used here (the Node configuration has no DOM types). */
export interface Channel {
  onmessage: ((event: { data: unknown }) => void) | null;
  postMessage(message: unknown): void;
  close(): void;
  unref?: () => void;
}

const Channels = (globalThis as unknown as { BroadcastChannel?: new (name: string) => Channel })
  .BroadcastChannel;

/** A channel of that name, or null without BroadcastChannel; it never keeps a Node process alive. */
export function storeChannel(name: string): Channel | null {
  if (!Channels) return null;
  const channel = new Channels(name);
  channel.unref?.();
  return channel;
}
