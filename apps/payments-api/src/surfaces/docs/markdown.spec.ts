import { headingSlug, renderInlineMarkdown, renderMarkdown } from './markdown';

describe('the Markdown of payhook pages', () => {
  it("anchors headings as GitHub does, each id once, from the heading's text", () => {
    const page = renderMarkdown('# A\n\n## A\n\n## A-1\n\n## `code` and [a link](https://x.example)\n\n## ???\n').value;
    expect([...page.matchAll(/ id="([^"]*)"/g)].map((match) => match[1])).toEqual([
      'a',
      'a-1',
      'a-1-1',
      'code-and-a-link',
      'section',
    ]);
    expect(headingSlug('Going live: the integration test')).toBe('going-live-the-integration-test');
  });

  it('links a Korean heading by the id it is given, not percent-encoded', () => {
    const page = renderMarkdown('[receipts](#cash-receipts-현금영수증)\n\n## Cash receipts (현금영수증)\n').value;
    expect(page).toContain('<a href="#cash-receipts-현금영수증">receipts</a>');
    expect(page).toContain(' id="cash-receipts-현금영수증"');
  });

  it('writes no inline style and no image, which the CSP of the pages would block, and escapes raw HTML', () => {
    const page = renderMarkdown(
      '| left | right |\n| :--- | ---: |\n| a | b |\n\n![a logo](https://x.example/logo.png)\n\n<script>alert(1)</script>\n',
    ).value;
    expect(page).not.toContain('style=');
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<script');
    expect(page).toContain('&lt;script&gt;');
    expect(page).toMatch(/<div class="scroll" tabindex="0" role="region" aria-label="Table 1: ">\s*<table>/);
  });

  it('points a link to openapi.json at the document a running payhook serves, and refuses unsafe schemes', () => {
    const page = renderMarkdown('[the document](openapi.json) [x](javascript:alert(1))').value;
    expect(page).toContain('<a href="/v1/openapi.json">the document</a>');
    expect(page).not.toMatch(/href="javascript/);
  });

  it('renders one line of a description without a paragraph around it', () => {
    expect(renderInlineMarkdown('Send it again since `since`').value).toBe('Send it again since <code>since</code>');
  });
});
