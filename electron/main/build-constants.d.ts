// Values electron-vite writes into the main process at build time (electron.vite.config.ts).

/**
 * The Ed25519 public key (PEM) that verifies an update's signed metadata, from the build's
 * ADVISOR_UPDATE_PUBLIC_KEY; empty when the build had none (it then never updates itself).
 */
declare const __UPDATE_PUBLIC_KEY__: string;
