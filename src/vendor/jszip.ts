// Bundled on its own into dist/vendor/jszip.js (see esbuild.js, lazyVendor): the workbook reader and
// writer (src/domain/xlsxZip.ts) require it on first use, never at activation.
export { default } from 'jszip';
