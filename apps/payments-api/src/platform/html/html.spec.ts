import { escapeHtml, html } from './html';

describe('html', () => {
  it('escapes interpolated text', () => {
    expect(html`<p>${'<script>alert("x")</script>'}</p>`.value).toBe(
      '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p>',
    );
  });

  it('keeps nested templates and joins lists', () => {
    const items = ['a&b', 'c'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>`.value).toBe('<ul><li>a&amp;b</li><li>c</li></ul>');
  });

  it('drops null, undefined and false', () => {
    expect(html`${null}${undefined}${false}x`.value).toBe('x');
  });

  it('escapes quotes for attribute values', () => {
    expect(escapeHtml(`" onmouseover='x'`)).toBe('&quot; onmouseover=&#39;x&#39;');
  });
});
