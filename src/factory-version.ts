declare const __WES_VERSION__: string;
/** Injected by the build (package.json version); the dev fallback serves vitest runs of the sources. */
export const VERSION: string = typeof __WES_VERSION__ === 'string' ? __WES_VERSION__ : '0.0.0-dev';
