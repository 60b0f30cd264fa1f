// Bundled on its own into dist/vendor/jszip.js (see esbuild.js, lazyVendor): loaded the first
// time a registry ZIP is opened, never at activation.
import JSZip from 'jszip';
export default JSZip;
