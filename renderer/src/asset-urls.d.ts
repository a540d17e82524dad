// Vite answers `?url` imports with the emitted file's URL (the pdf.js worker, served from 'self').
declare module '*?url' {
  const url: string;
  export default url;
}
