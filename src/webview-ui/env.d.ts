// esbuild's webview build loads .css files as text (loader: { '.css': 'text' }).
declare module '*.css' {
  const text: string;
  export default text;
}
