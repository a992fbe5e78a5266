import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The merchant guide, kept in the repository beside docs/openapi.json. */
const GUIDE_PATH = join('docs', 'merchant-guide.md');

let guide: string | null | undefined;

/**
 * The text of docs/merchant-guide.md, found from this file up to the repository (or image) root:
 * the same walk from the sources (tests), dist/ (npm start) and /app (the container). Null when a
 * deployment left it out: /docs then names it instead of linking.
 */
export function merchantGuide(): string | null {
  if (guide !== undefined) return guide;
  guide = null;
  for (let directory = __dirname; ; directory = dirname(directory)) {
    const candidate = join(directory, GUIDE_PATH);
    if (existsSync(candidate)) {
      guide = readFileSync(candidate, 'utf8');
      break;
    }
    if (dirname(directory) === directory) break;
  }
  return guide;
}
