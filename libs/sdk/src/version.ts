/** This package's version (libs/sdk/package.json; a unit test keeps them equal), sent in the User-Agent. */
export const SDK_VERSION = '0.1.0';
