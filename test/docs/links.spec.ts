import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * Every relative link in the repository's Markdown (the README, docs/, the SDK's and the example
 * shop's READMEs) reaches a file that is there, and every `#anchor` a heading of that file, as GitHub
 * renders them. A page moved or a heading renamed fails here, not in a reader's browser.
 */
const ROOT = join(__dirname, '..', '..');

const markdownFiles = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
  cwd: ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => file !== '' && !file.startsWith('node_modules/'));

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to dashes; repeats get -1, -2. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1].replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

/** The links of a Markdown text outside code: `[text](target)` and `<a href>`-free reference-less form. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]);
}

const cases = markdownFiles.flatMap((file) =>
  linksOf(readFileSync(join(ROOT, file), 'utf8'))
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => ({ file, target })),
);

describe('links in the Markdown of the repository', () => {
  it('finds the README and docs/ with links to check', () => {
    expect(markdownFiles).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md']));
    expect(cases.filter((one) => one.file === 'README.md').length).toBeGreaterThan(5);
  });

  it.each(cases)('$file → $target', ({ file, target }) => {
    const [path, anchor] = target.split('#') as [string, string | undefined];
    const resolved = path === '' ? join(ROOT, file) : join(ROOT, dirname(file), decodeURI(path));
    expect(relative(ROOT, resolved).startsWith('..')).toBe(false);
    expect(existsSync(resolved)).toBe(true);
    if (anchor !== undefined && statSync(resolved).isFile() && resolved.endsWith('.md')) {
      expect([...anchorsOf(readFileSync(resolved, 'utf8'))]).toContain(decodeURIComponent(anchor));
    }
  });
});
