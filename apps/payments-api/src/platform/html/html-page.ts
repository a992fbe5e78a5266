import { html, type SafeHtml } from './html';

/**
 * The document around every page payhook renders (payment screen, console, /docs): one stylesheet
 * under the response's CSP nonce and nothing else, so no page can load from another host.
 */
export function htmlPage(options: {
  title: string;
  /** The page's language (`<html lang>`): a payment screen's negotiated locale; English by default. */
  lang?: string;
  nonce: string;
  style: SafeHtml;
  body: SafeHtml;
  /** Above `<main>`: the console's navigation. */
  header?: SafeHtml;
  /** Pages of one payer or one merchant stay out of search engines; the API reference may not. */
  indexable?: boolean;
}): string {
  return html`<!doctype html>
    <html lang="${options.lang ?? 'en'}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        ${options.indexable ? null : html`<meta name="robots" content="noindex" />`}
        <title>${options.title}</title>
        <style nonce="${options.nonce}">
          ${options.style}
        </style>
      </head>
      <body>
        ${options.header ?? null}
        <main>${options.body}</main>
      </body>
    </html>`.value;
}
