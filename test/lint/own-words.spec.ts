import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The repository states its own rules (the OpenAPI documents, docs/): no file cites the planning
 * documents kept outside it, which a reader of the repository cannot open.
 */
describe('the repository', () => {
  it('cites no document outside it', () => {
    const root = join(__dirname, '../..');
    // git grep: tracked files only, so node_modules and build output are never read. Exit 1 is "none found".
    let found = '';
    try {
      found = execFileSync(
        'git',
        ['grep', '-n', '-E', 'DESIGN(\\.md| §)', '--', '.', ':!test/lint/own-words.spec.ts'],
        {
          cwd: root,
          encoding: 'utf8',
        },
      );
    } catch (error) {
      if ((error as { status?: number }).status !== 1) throw error;
    }
    expect(found).toBe('');
  });
});
