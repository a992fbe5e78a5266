// Lints texts as if they were the named files of this repository, with the repository's own
// eslint.config.mjs (ESLint's Node API), and prints each file's messages as JSON. Run in a process of
// its own: ESLint loads its flat config as an ES module, which Jest's module sandbox cannot.
// Input on stdin: [{ "filePath": "apps/…/x.ts", "text": "…" }]; the files' contents on disk are
// neither read nor changed. Only the boundary rules run, and they need no types: no TypeScript
// program is built, which is most of what a type-aware lint costs.
import { ESLint } from 'eslint';

const BOUNDARY_RULES = new Set([
  'no-restricted-imports',
  '@typescript-eslint/no-restricted-imports',
  'no-restricted-syntax',
]);

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const inputs = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const eslint = new ESLint({
  ruleFilter: ({ ruleId }) => BOUNDARY_RULES.has(ruleId),
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});
const results = [];
for (const { filePath, text } of inputs) {
  const [result] = await eslint.lintText(text, { filePath });
  results.push({
    filePath,
    messages: result.messages.map(({ ruleId, message }) => ({ ruleId, message })),
  });
}
process.stdout.write(JSON.stringify(results));
