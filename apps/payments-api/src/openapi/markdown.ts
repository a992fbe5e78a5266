import MarkdownIt from 'markdown-it';
import { escapeHtml, SafeHtml } from '../html/html';

/**
 * Markdown of payhook's own texts (the merchant guide, the OpenAPI descriptions) as HTML. Raw HTML
 * in the source is escaped (`html: false`) and unsafe link schemes are refused by markdown-it itself;
 * the page's CSP allows no inline style, and no rule here writes one.
 */
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** Links in the guide that point at a file of the repository, and what a running payhook serves for it. */
const SERVED_FILES: Record<string, string> = { 'openapi.json': '/v1/openapi.json' };

/**
 * GitHub's heading anchors (lower case, punctuation dropped, spaces as hyphens), so that a Contents
 * link written for the repository works on the served page as well.
 */
export function headingSlug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

markdown.core.ruler.push('heading_ids', (state) => {
  const taken = new Map<string, number>();
  state.tokens.forEach((token, index) => {
    if (token.type !== 'heading_open') return;
    const slug = headingSlug(state.tokens[index + 1].content);
    const seen = taken.get(slug) ?? 0;
    taken.set(slug, seen + 1);
    token.attrSet('id', seen === 0 ? slug : `${slug}-${seen}`);
  });
});

const renderLinkOpen = markdown.renderer.rules.link_open;
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  const href = tokens[index].attrGet('href');
  if (href && SERVED_FILES[href]) tokens[index].attrSet('href', SERVED_FILES[href]);
  return renderLinkOpen ? renderLinkOpen(tokens, index, options, env, self) : self.renderToken(tokens, index, options);
};

/** The heading a table or code block stands under, to name its scrolling region. */
function headingBefore(tokens: MarkdownIt.Token[], index: number): string {
  for (let at = index; at >= 0; at--) if (tokens[at].type === 'heading_open') return tokens[at + 1].content;
  return '';
}

/**
 * Wide tables and long code lines scroll sideways on a narrow screen, inside a region the keyboard
 * can reach (WCAG: scrollable content must be focusable), named after its section and numbered so
 * that no two regions share a name.
 */
function scrollingRegion(
  kind: string,
  tokens: MarkdownIt.Token[],
  index: number,
  env: MarkdownIt.Env | undefined,
): string {
  const counter = (env ?? {}) as { regions?: number };
  counter.regions = (counter.regions ?? 0) + 1;
  const label = `${kind} ${counter.regions}: ${headingBefore(tokens, index)}`;
  return `<div class="scroll" tabindex="0" role="region" aria-label="${escapeHtml(label)}">`;
}

markdown.renderer.rules.table_open = (tokens, index, options, env, self) =>
  scrollingRegion('Table', tokens, index, env) + self.renderToken(tokens, index, options);
markdown.renderer.rules.table_close = (tokens, index, options, _env, self) =>
  `${self.renderToken(tokens, index, options)}</div>\n`;

const renderFence = markdown.renderer.rules.fence;
markdown.renderer.rules.fence = (tokens, index, options, env, self) =>
  `${scrollingRegion('Example', tokens, index, env)}${renderFence?.(tokens, index, options, env, self) ?? ''}</div>\n`;

/** A whole Markdown document (the merchant guide) as HTML. */
export function renderMarkdown(source: string): SafeHtml {
  return new SafeHtml(markdown.render(source, {}));
}

/** One line of Markdown (an OpenAPI description): `code`, emphasis and links, no paragraph around it. */
export function renderInlineMarkdown(source: string): SafeHtml {
  return new SafeHtml(markdown.renderInline(source, {}));
}
