// Bundled on its own into dist/vendor/node-fetch.js (see esbuild.js, lazyVendor): the
// extension requires it on the first HTTP request, not at activation.
export { default, Headers, Request, Response, FetchError, AbortError } from 'node-fetch';
