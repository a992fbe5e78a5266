/** Text that is already safe HTML (built by `html`). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const SPECIAL = /[&<>"']/;

export function escapeHtml(text: string): string {
  // Most text (a page's messages, names, codes) has nothing to escape: a test is cheaper than a replace.
  if (!SPECIAL.test(text)) return text;
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

type Value = string | number | SafeHtml | null | undefined | false | Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) {
    let out = '';
    for (const each of value) out += render(each);
    return out;
  }
  if (value instanceof SafeHtml) return value.value;
  return escapeHtml(String(value));
}

/** A template tag that escapes every interpolated value unless it is SafeHtml itself. */
export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  let out = strings[0];
  for (let index = 0; index < values.length; index++) out += render(values[index]) + strings[index + 1];
  return new SafeHtml(out);
}
