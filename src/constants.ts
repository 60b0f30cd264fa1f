// Identifiers shared by package.json contributions, the code and the tests.
export const EXTENSION_ID = 'nilvera-community.nilvera-general';

export const Commands = {
  sandboxStart: 'nilvera.sandbox.start',
} as const;
