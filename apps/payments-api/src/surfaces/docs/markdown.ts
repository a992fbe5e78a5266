import MarkdownIt from 'markdown-it';
import { escapeHtml, SafeHtml } from '../../platform/html/html';

/**
 * Markdown of payhook's own texts (the merchant guide, the OpenAPI descriptions) as HTML. Raw HTML
 * in the source is escaped (`html: false`) and unsafe link schemes are refused by markdown-it itself.
 * The pages' CSP allows no inline style and no image: images stay text, and a table column's
 * alignment (markdown-it's only `style` attribute) is dropped.
 */
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false }).disable('image');

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

/** A heading's text as a reader sees it: link targets and code marks left out. */
function headingText(inline: MarkdownIt.Token): string {
  return (inline.children ?? [])
    .filter((child) => child.type === 'text' || child.type === 'code_inline')
    .map((child) => child.content)
    .join('');
}

markdown.core.ruler.push('heading_ids', (state) => {
  // As GitHub does: a slug already taken gets -1, -2, … until it is free; an empty one is `section`.
  const taken = new Set<string>();
  state.tokens.forEach((token, index) => {
    if (token.type !== 'heading_open') return;
    const slug = headingSlug(headingText(state.tokens[index + 1])) || 'section';
    let id = slug;
    for (let n = 1; taken.has(id); n++) id = `${slug}-${n}`;
    taken.add(id);
    token.attrSet('id', id);
  });
});

markdown.core.ruler.push('no_inline_style', (state) => {
  for (const token of state.tokens) {
    if (token.type === 'th_open' || token.type === 'td_open') {
      token.attrs = token.attrs?.filter(([name]) => name !== 'style') ?? null;
    }
  }
});

const renderLinkOpen = markdown.renderer.rules.link_open;
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  const href = tokens[index].attrGet('href');
  if (href && SERVED_FILES[href]) tokens[index].attrSet('href', SERVED_FILES[href]);
  // markdown-it percent-encodes what is not ASCII; an anchor stays as its heading's id is written
  // (a Korean heading's), so that the link and the id read the same.
  else if (typeof href === 'string' && href.startsWith('#')) tokens[index].attrSet('href', safelyDecoded(href));
  return renderLinkOpen ? renderLinkOpen(tokens, index, options, env, self) : self.renderToken(tokens, index, options);
};

function safelyDecoded(href: string): string {
  try {
    return decodeURIComponent(href);
  } catch {
    return href;
  }
}

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
