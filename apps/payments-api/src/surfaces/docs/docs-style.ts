import { SafeHtml } from '../../platform/html/html';

/** The stylesheet of the pages a merchant's developer reads: /docs and /docs/guide. */
export const DOCS_STYLE = new SafeHtml(`
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans KR",sans-serif;background:#f3f4f6;color:#111827}
main{max-width:60rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:0 0 .5rem}
h2{font-size:1.25rem;margin:2rem 0 .75rem}
h3{font-size:1.0625rem;margin:0 0 .5rem;overflow-wrap:anywhere}
section{background:#fff;border-radius:10px;padding:1rem;margin:0 0 1rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.method{display:inline-block;min-width:4rem;font-weight:700;color:#1e3a8a}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9375em}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{text-align:left;vertical-align:top;padding:.375rem .5rem;border-bottom:1px solid #e5e7eb;overflow-wrap:anywhere}
th{color:#374151;font-weight:600}
.muted{color:#4b5563}
a{color:#1d4ed8}
.scroll{overflow-x:auto}
h4{font-size:1rem;margin:1rem 0 .25rem}
pre{background:#f9fafb;border:1px solid #e5e7eb;border-radius:6px;padding:.5rem .75rem;margin:0}
main>pre,main>.scroll{margin:0 0 1rem}
blockquote{margin:0 0 1rem;padding:0 1rem;border-left:4px solid #d1d5db;color:#374151}
`);
